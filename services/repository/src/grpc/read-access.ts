// Reads of git data trust the gateway's resolution: the repository and the caller's
// permission there travel in the signed metadata (kit's repository scope, DESIGN.md §3), so a
// read asks PostgreSQL nothing about permissions, collaborators or teams. Its one statement is
// the repository's refs (git/ref-index.ts), which also brings the facts a push can change —
// the default branch and whether the repository is empty — fresher than the gateway's copy,
// so a push is visible to the next read on every replica even before the gateway's cache
// heard of it. Without a scope (another caller than the gateway, an older gateway) or when
// the repository has no ref rows yet, the domain resolves the repository itself as before.
import { atLeast, type Caller, type RepositoryScope } from '@anvil/kit';
import { visibilityName, type repository } from '@anvil/proto';
import type { RepositoryAccess } from '../domain/repositories.js';
import type { Repository } from '../domain/repository.js';
import type { RefIndex } from '../git/ref-index.js';
import type { RepositoryStorage } from '../git/storage.js';

/** What a read asks of the refs statement beside the refs: one ref only, the branch rules and the caller's teams. */
export interface ReadNeeds {
  only?: string;
  protections?: boolean;
}

/** What the read services need to answer from the scope. */
export interface ReadAccessDeps {
  refs: RefIndex;
  storage: Pick<RepositoryStorage, 'pathOf'>;
}

type Timestamp = { seconds?: number | string | null; nanos?: number | null } | null | undefined;
const dateOf = (t: Timestamp) => (t && t.seconds !== undefined && t.seconds !== null ? new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)) : null);

/** The domain's repository from ResolveRepository's reply (the inverse of messages.ts repositoryMessage). */
function repositoryOf(r: repository.Repository): Repository {
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
    num_watches: Number(r.num_watches ?? 0), created_at: dateOf(r.created_at) ?? new Date(0), updated_at: dateOf(r.updated_at) ?? new Date(0),
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
    repository: repositoryOf(repo),
    owner: {
      id: Number(user.id), login: user.login, type: user.type === 'organization' ? 'organization' : 'user',
      isAdmin: Boolean(user.is_admin), restricted: Boolean(user.restricted), visibility: visibilityName(user.visibility) ?? 'public',
      fullName: user.full_name ?? '', email: user.email ?? '', maxRepoCreation: Number(user.max_repo_creation ?? -1),
      profile: { ...user } as Record<string, unknown>,
    },
    permission: permission as RepositoryAccess['permission'],
  };
  converted.set(scope, access);
  return access;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The repository `ref` names with the caller's permission, from the gateway's scope, with the
 * default branch and emptiness from the refs statement; undefined when the domain must
 * resolve it (no scope, a scope for another repository or below read, no ref rows yet).
 * Call inside `deps.refs.readCall()` so the statement also answers the read's revisions.
 */
export async function scopedReadAccess(
  deps: ReadAccessDeps, scope: RepositoryScope | undefined, ref: repository.RepositoryRef, caller: Caller, needs: ReadNeeds = {},
): Promise<RepositoryAccess | undefined> {
  if (!scope) return undefined;
  const access = accessOf(scope);
  if (!access || !atLeast(access.permission, 'read')) return undefined;
  const repo = access.repository;
  if (!sameName(repo.owner_login, ref.owner) || !sameName(repo.name, ref.name)) return undefined;
  const extras = needs.protections ? { protections: true, userId: caller.userId } : undefined;
  const snapshot = await deps.refs.snapshot(deps.storage.pathOf(repo.owner_login, repo.name), needs.only, extras);
  if (!snapshot) return undefined;
  if (snapshot.defaultBranch === repo.default_branch && snapshot.empty === repo.empty) return access;
  return { ...access, repository: { ...repo, default_branch: snapshot.defaultBranch, empty: snapshot.empty } };
}

/**
 * Runs a read call: `work` gets the scoped access (or undefined, for the domain to resolve),
 * and every ref question inside it is answered by one snapshot of the repository's rows.
 */
export function readWithScope<T>(
  deps: ReadAccessDeps, scope: RepositoryScope | undefined, ref: repository.RepositoryRef, caller: Caller,
  work: (known: RepositoryAccess | undefined) => Promise<T>, needs?: ReadNeeds,
): Promise<T> {
  return deps.refs.readCall(async () => work(await scopedReadAccess(deps, scope, ref, caller, needs)));
}
