// Push mirrors (Gitea's routers/api/v1/repo/mirror.go, services/mirror/mirror_push.go):
// remotes a repository's branches and tags are pushed to. Repository admins manage them;
// the remote's address is checked against [migrations] like a migration's, when it is added
// and before every push.
import { randomBytes } from 'node:crypto';
import { forbidden, invalid, notFound, type Logger } from '@anvil/kit';
import type { RepositoryAccess } from './repositories.js';
import { parseGoDuration, parseRemoteAddress, type RemoteAddress } from './remote-address.js';
import type { RepositoryStore } from './store.js';

export interface PushMirrorRecord {
  repositoryId: number;
  remoteName: string;
  remoteAddress: string;
  intervalMs: number;
  syncOnCommit: boolean;
  lastUpdate: Date | null;
  lastError: string;
  createdAt: Date;
}

/** A push mirror the scheduler claimed. */
export interface DuePushMirror {
  repositoryId: number;
  remoteName: string;
}

export interface PushMirrorStore {
  /** Claims up to `limit` push mirrors due at `now`, leasing each for `leaseMs`. */
  claimDue(now: Date, leaseMs: number, limit: number): Promise<DuePushMirror[]>;
  list(repositoryId: number, offset: number, limit: number): Promise<{ items: PushMirrorRecord[]; total: number }>;
  find(repositoryId: number, remoteName: string): Promise<PushMirrorRecord | undefined>;
  insert(record: Pick<PushMirrorRecord, 'repositoryId' | 'remoteName' | 'remoteAddress' | 'intervalMs' | 'syncOnCommit'>): Promise<PushMirrorRecord>;
  remove(repositoryId: number, remoteName: string): Promise<void>;
  /** Makes the repository's sync_on_commit push mirrors due now; how many. */
  markDueAfterPush(repositoryId: number): Promise<number>;
  /** Records a push's outcome and schedules the next one after the mirror's interval. */
  synced(repositoryId: number, remoteName: string, lastError: string): Promise<void>;
}

export interface PushMirrorGit {
  /** Throws OutboundRefused (kit) when [migrations] does not allow the address. */
  check(address: RemoteAddress): Promise<void>;
  addRemote(owner: string, name: string, remoteName: string, address: RemoteAddress): Promise<void>;
  removeRemote(owner: string, name: string, remoteName: string): Promise<void>;
  /** Pushes branches and tags (pruning) to the remote; throws with a scrubbed message. */
  push(owner: string, name: string, remoteName: string): Promise<void>;
}

export interface PushMirrorDeps {
  repositories: RepositoryStore;
  mirrors: PushMirrorStore;
  git: PushMirrorGit;
  settings: { enabled: boolean; newPushMirrors: boolean; minIntervalMs: number };
}

const REMOTE_NAME = /^remote_mirror_[0-9a-f]{10}$/;

// Every operation here is for the repository's admins: the route table's `repoAccess: 'admin'`.

export async function listPushMirrors(deps: PushMirrorDeps, access: RepositoryAccess, page: { offset: number; limit: number }) {
  if (!deps.settings.enabled) throw invalid('mirrors are disabled', 'mirrors_disabled');
  return { access, ...(await deps.mirrors.list(access.repository.id, page.offset, page.limit)) };
}

export async function getPushMirror(deps: PushMirrorDeps, access: RepositoryAccess, remoteName: string) {
  if (!deps.settings.enabled) throw invalid('mirrors are disabled', 'mirrors_disabled');
  const mirror = await deps.mirrors.find(access.repository.id, remoteName);
  if (!mirror) throw notFound('The target couldn\'t be found.', 'push_mirror_not_found');
  return { access, mirror };
}

export interface NewPushMirror {
  remoteAddress: string;
  remoteUsername: string;
  remotePassword: string;
  interval: string;
  syncOnCommit: boolean;
}

export async function createPushMirror(deps: PushMirrorDeps, access: RepositoryAccess, input: NewPushMirror) {
  // Gitea answers 400 for both.
  if (!deps.settings.enabled) throw invalid('mirrors are disabled', 'mirrors_disabled');
  if (!deps.settings.newPushMirrors) throw invalid('push mirrors are disabled', 'mirrors_disabled');
  const intervalMs = input.interval ? parseGoDuration(input.interval) : 8 * 3_600_000;
  if (intervalMs === undefined || (intervalMs !== 0 && intervalMs < deps.settings.minIntervalMs)) throw invalid(`invalid interval: ${input.interval}`, 'invalid_mirror_interval');
  const address = parseRemoteAddress(input.remoteAddress, { username: input.remoteUsername, password: input.remotePassword }, { isAdmin: false }, { importLocalPaths: false, allowedLocalRoot: '' });
  try {
    await deps.git.check(address);
  } catch (err) {
    if ((err as { code?: string }).code === 'ANVIL_OUTBOUND_REFUSED') {
      throw invalid('You cannot push to disallowed hosts, please ask the admin to check ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS/BLOCKED_DOMAINS settings.', 'remote_refused');
    }
    throw err;
  }
  const remoteName = `remote_mirror_${randomBytes(5).toString('hex')}`;
  await deps.git.addRemote(access.owner.login, access.repository.name, remoteName, address);
  try {
    const mirror = await deps.mirrors.insert({ repositoryId: access.repository.id, remoteName, remoteAddress: address.safeUrl, intervalMs, syncOnCommit: input.syncOnCommit });
    return { access, mirror };
  } catch (err) {
    await deps.git.removeRemote(access.owner.login, access.repository.name, remoteName).catch(() => undefined);
    throw err;
  }
}

export async function deletePushMirror(deps: PushMirrorDeps, access: RepositoryAccess, remoteName: string): Promise<void> {
  await getPushMirror(deps, access, remoteName);
  // The row goes first: a failure after it leaves an unused remote, never a row without one.
  await deps.mirrors.remove(access.repository.id, remoteName);
  if (REMOTE_NAME.test(remoteName)) await deps.git.removeRemote(access.owner.login, access.repository.name, remoteName);
}

/** POST push_mirrors-sync: pushes to every push mirror now; the first failure is a 422. */
export async function syncPushMirrors(deps: PushMirrorDeps, access: RepositoryAccess): Promise<void> {
  if (!deps.settings.enabled) throw invalid('mirrors are disabled', 'mirrors_disabled');
  if (access.repository.archived) throw forbidden('repository is archived', 'repo_archived');
  const { items } = await deps.mirrors.list(access.repository.id, 0, 1000);
  let failure: string | undefined;
  for (const mirror of items) {
    if (!REMOTE_NAME.test(mirror.remoteName)) continue;
    try {
      await deps.git.push(access.owner.login, access.repository.name, mirror.remoteName);
      await deps.mirrors.synced(access.repository.id, mirror.remoteName, '');
    } catch (err) {
      const message = (err as Error).message;
      await deps.mirrors.synced(access.repository.id, mirror.remoteName, message);
      failure ??= message;
    }
  }
  if (failure) throw invalid(`push mirror sync failed: ${failure}`, 'push_mirror_failed');
}

/** A scheduled push: failures are stored on the mirror and logged, never thrown. */
export async function pushDueMirror(deps: PushMirrorDeps, due: DuePushMirror, log: Logger): Promise<void> {
  const found = await deps.repositories.findById(due.repositoryId);
  if (!found) {
    await deps.mirrors.remove(due.repositoryId, due.remoteName); // the repository was deleted
    return;
  }
  if (!REMOTE_NAME.test(due.remoteName)) return;
  try {
    await deps.git.push(found.owner.login, found.repository.name, due.remoteName);
    await deps.mirrors.synced(due.repositoryId, due.remoteName, '');
  } catch (err) {
    const message = (err as Error).message;
    await deps.mirrors.synced(due.repositoryId, due.remoteName, message).catch(() => undefined);
    log.warn({ repository: `${found.owner.login}/${found.repository.name}`, remote: due.remoteName, err: message }, 'push mirror failed');
  }
}
