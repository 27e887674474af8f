// repositoryOf (requests.ts) for the reads of git data: contents, branches, commits, trees,
// blobs, refs, tags, languages. The gateway's route checked `repoAccess: 'read'` and signed
// its resolution (the repository, its owner and the caller's permission) into the call's
// metadata (DESIGN.md §3); a read takes all of it as it stands, so it asks PostgreSQL nothing
// about the repository, permissions, collaborators or teams. Its one statement is the
// repository's refs (git/ref-index.ts), which also brings the facts a push can change — the
// default branch and whether the repository is empty — fresher than the gateway's copy, so a
// push is visible to the next read on every replica even before the gateway's cache heard of
// it. Without a resolution (another caller than the gateway), one of another repository or
// below read, or when the repository has no ref rows yet, it is repositoryOf's answer.
import { atLeast, toAccessMode, type Caller, type RepositoryScope } from '@anvil/kit';
import { visibilityName, type repository } from '@anvil/proto';
import type { RepositoryAccess } from '../domain/repositories.js';
import type { Repository } from '../domain/repository.js';
import type { RepositoryStore } from '../domain/store.js';
import type { RefIndex } from '../git/ref-index.js';
import type { RepositoryStorage } from '../git/storage.js';
import { gatewayResolutionOf, repositoryOf } from './requests.js';

/** What a read asks of the refs statement beside the refs: one ref only, the branch rules and the caller's teams. */
export interface ReadNeeds {
  only?: string;
  protections?: boolean;
}

/** What the read services need to answer from the gateway's resolution (and the store without one). */
export interface ReadAccessDeps {
  store: RepositoryStore;
  refs: RefIndex;
  storage: Pick<RepositoryStorage, 'pathOf'>;
}

type Timestamp = { seconds?: number | string | null; nanos?: number | null } | null | undefined;
const dateOf = (t: Timestamp) => (t && t.seconds !== undefined && t.seconds !== null ? new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)) : null);

/** The domain's repository from ResolveRepository's reply (the inverse of messages.ts repositoryMessage). */
function repositoryFromMessage(r: repository.Repository): Repository {
  return {
    id: Number(r.id), owner_id: Number(r.owner_id), owner_login: r.owner_login, name: r.name,
    description: r.description ?? '', website: r.website ?? '', private: Boolean(r.private), archived: Boolean(r.archived),
    archived_at: dateOf(r.archived_at), default_branch: r.default_branch, empty: Boolean(r.empty),
    size: Number(r.size ?? 0) * 1024, object_format_name: r.object_format_name || 'sha1', template: Boolean(r.template),
    has_issues: Boolean(r.has_issues), has_wiki: Boolean(r.has_wiki), has_pull_requests: Boolean(r.has_pull_requests),
    has_projects: Boolean(r.has_projects), has_releases: Boolean(r.has_releases), has_packages: Boolean(r.has_packages),
    has_actions: Boolean(r.has_actions), has_code: Boolean(r.has_code),
    pull_request_settings: r.pull_request_settings as unknown as Repository['pull_request_settings'],
    internal_tracker: r.internal_tracker as unknown as Repository['internal_tracker'],
    topics: r.topics ?? [], branch_count: Number(r.branch_count ?? 0), licenses: r.licenses ?? [],
    num_watches: Number(r.num_watches ?? 0), num_open_issues: Number(r.num_open_issues ?? 0), num_open_pulls: Number(r.num_open_pulls ?? 0),
    num_stars: Number(r.num_stars ?? 0), avatar: r.avatar ?? '', fork_id: Number(r.fork_id ?? 0) || null, num_forks: Number(r.num_forks ?? 0),
    created_at: dateOf(r.created_at) ?? new Date(0), updated_at: dateOf(r.updated_at) ?? new Date(0),
    language: r.language ?? '', status: r.status === 'migrating' ? 'migrating' : 'ready', mirror: Boolean(r.mirror),
    original_url: r.original_url ?? '', mirror_interval: 0, mirror_updated_at: dateOf(r.mirror_updated_at),
  };
}

// The kit hands out one scope object per verified value, so each is converted once.
const converted = new WeakMap<RepositoryScope, RepositoryAccess>();

function accessOf(scope: RepositoryScope): RepositoryAccess | undefined {
  const known = converted.get(scope);
  if (known) return known;
  const { repository: repo, owner: user, permission } = scope;
  if (!repo || !user || !user.id || !user.login) return undefined;
  const access: RepositoryAccess = {
    repository: repositoryFromMessage(repo),
    owner: {
      id: Number(user.id), login: user.login, type: user.type === 'organization' ? 'organization' : 'user',
      isAdmin: Boolean(user.is_admin), restricted: Boolean(user.restricted), visibility: visibilityName(user.visibility) ?? 'public',
      fullName: user.full_name ?? '', email: user.email ?? '', maxRepoCreation: Number(user.max_repo_creation ?? -1),
      profile: { ...user } as Record<string, unknown>,
    },
    permission: toAccessMode(permission),
  };
  converted.set(scope, access);
  return access;
}

/**
 * The repository `ref` names with the caller's permission, from the gateway's scope, with the
 * default branch and emptiness from the refs statement; undefined when the domain must
 * resolve it (no scope, a scope for another repository or below read, no ref rows yet).
 * Call inside `deps.refs.readCall()` so the statement also answers the read's revisions.
 */
export async function scopedReadAccess(
  deps: Pick<ReadAccessDeps, 'refs' | 'storage'>, scope: RepositoryScope | undefined, ref: repository.RepositoryRef, caller: Caller, needs: ReadNeeds = {},
): Promise<RepositoryAccess | undefined> {
  if (!scope) return undefined;
  const access = accessOf(scope);
  // A resolution of another repository than the request names is not this one's.
  if (!access || !atLeast(access.permission, 'read') || !gatewayResolutionOf(ref, scope)) return undefined;
  const repo = access.repository;
  const extras = needs.protections ? { protections: true, userId: caller.userId } : undefined;
  const snapshot = await deps.refs.snapshot(deps.storage.pathOf(repo.owner_login, repo.name), needs.only, extras);
  if (!snapshot) return undefined;
  if (snapshot.defaultBranch === repo.default_branch && snapshot.empty === repo.empty) return access;
  return { ...access, repository: { ...repo, default_branch: snapshot.defaultBranch, empty: snapshot.empty } };
}

/**
 * Runs a read call about the repository `ref` names: `work` gets it with the caller's
 * permission (the gateway's resolution with fresh refs facts, else repositoryOf's), and every
 * ref question inside it is answered by one snapshot of the repository's rows.
 */
export function repositoryRead<T>(
  deps: ReadAccessDeps, ref: repository.RepositoryRef, context: { caller: Caller; repository?: RepositoryScope },
  work: (access: RepositoryAccess) => Promise<T>, needs?: ReadNeeds,
): Promise<T> {
  return deps.refs.readCall(async () => {
    const scoped = await scopedReadAccess(deps, context.repository, ref, context.caller, needs);
    return work(scoped ?? await repositoryOf(deps.store, ref, context));
  });
}
