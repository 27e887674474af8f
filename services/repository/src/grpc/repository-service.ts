// anvil.repository.v1.RepositoryService: decode the request, call the domain, encode the reply.
import { notFound, type Caller, type ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getCollaborator, listCollaborators, removeCollaborator, setCollaborator, userPermission } from '../domain/collaborators.js';
import { listAssignees, visibleRepositories } from '../domain/issue-access.js';
import { getOwner, isOwnerVisibleTo, type Owner, type OwnerKey } from '../domain/owner.js';
import {
  createRepository, deleteRepository, editRepository, getRepositoryById, resolveRepository, searchRepositories,
  type RepositoryAccess, type RepositoryDeps,
} from '../domain/repositories.js';
import type { SearchFilter } from '../domain/store.js';
import { forkRepository, listForks, pullHeadRepositories, withParents } from '../domain/forks.js';
import { ownerUserMessage, repositoryMessage } from './messages.js';
import { definedFields, pageOf, refOf, repositoryOf } from './requests.js';

export const REPOSITORY_SERVICE_NAME = 'anvil.repository.v1.RepositoryService';

function ownerKeyOf(request: repository.GetOwnerRequest): OwnerKey | undefined {
  if (request.key === 'id') return { id: Number(request.id) };
  if (request.key === 'login') return { login: request.login ?? '' };
  return undefined;
}

function ownerReply(owner: Owner): repository.OwnerInput {
  return { id: owner.id, login: owner.login, type: owner.type, is_admin: owner.isAdmin };
}

/** A repository, its owner and the caller's permission; a fork's parent with the fork's permission (Gitea's innerToRepo). */
export function accessReply(access: RepositoryAccess): repository.RepositoryAccessInput {
  const parent = access.parent
    ? { repository: repositoryMessage(access.parent.repository), permission: access.permission, owner: ownerUserMessage(access.parent.owner) }
    : null;
  return { repository: repositoryMessage(access.repository), permission: access.permission, owner: ownerUserMessage(access.owner), parent, collaborator: access.collaborator ?? false };
}

/** The reply of one repository, its parent loaded when it is a fork. */
async function oneReply(store: RepositoryDeps['store'], access: RepositoryAccess) {
  return accessReply((await withParents(store, [access]))[0]);
}

const SORTS = new Set<SearchFilter['sort']>(['id', 'alpha', 'created', 'updated', 'size', 'forks', 'stars']);
const SORT_ALIASES: Record<string, SearchFilter['sort']> = { newest: 'created', oldest: 'created', recentupdate: 'updated', leastupdate: 'updated', alphabetically: 'alpha', reversealphabetically: 'alpha', size: 'size', id: 'id' };

export function searchFilterOf(request: repository.SearchRepositoriesRequest, caller: Caller): SearchFilter {
  const { offset, limit } = pageOf(request.page);
  const sort = SORTS.has(request.sort as SearchFilter['sort']) ? (request.sort as SearchFilter['sort']) : (SORT_ALIASES[request.sort] ?? 'id');
  return {
    viewerId: caller.userId,
    viewerIsAdmin: caller.isAdmin,
    viewerRestricted: caller.restricted,
    q: request.q,
    owner_id: Number(request.owner_id),
    exclusive: request.exclusive,
    includeCollaborative: request.include_collaborative,
    onlyCollaborative: request.mode === 'collaborative',
    // A public-only token lists public repositories only.
    visibility: caller.scopes.includes('public-only') ? 'public' : request.visibility === 'public' || request.visibility === 'private' ? request.visibility : '',
    archived: request.archived === 'true' ? true : request.archived === 'false' ? false : undefined,
    template: request.template ?? undefined,
    sort,
    order: request.order === 'desc' ? 'desc' : 'asc',
    offset,
    limit,
    ids: request.ids?.length ? request.ids.map(Number) : undefined,
    fork: request.mode === 'fork' ? true : request.mode === 'source' ? false : undefined,
  };
}

export function repositoryService(deps: RepositoryDeps): ServiceImplementation<repository.RepositoryServiceHandlers> {
  const { store } = deps;
  return {
    async GetOwner(request) {
      return ownerReply(await getOwner({ findById: store.findOwnerById, findByLogin: store.findOwnerByLogin }, ownerKeyOf(request)));
    },
    async CountOwnedRepositories(request) {
      const owner = await getOwner({ findById: store.findOwnerById, findByLogin: store.findOwnerByLogin }, ownerKeyOf(request));
      return { owner_id: owner.id, count: await store.countOwnedBy(owner.id) };
    },
    async CreateRepository(request, { caller }) {
      return accessReply(await createRepository(deps, {
        owner_id: Number(request.owner_id), name: request.name, description: request.description, private: request.private,
        default_branch: request.default_branch, auto_init: request.auto_init, readme: request.readme, template: request.template,
        object_format_name: request.object_format_name, gitignores: request.gitignores, license: request.license,
      }, caller));
    },
    async ResolveRepository(request, { caller }) {
      return oneReply(store, await resolveRepository(store, request.owner, request.name, caller));
    },
    async GetRepositoryById(request, { caller }) {
      return oneReply(store, await getRepositoryById(store, Number(request.id), caller));
    },
    async EditRepository(request, context) {
      return oneReply(store, await editRepository(deps, await repositoryOf(store, refOf(request), context), {
        name: request.name ?? undefined,
        description: request.description ?? undefined,
        website: request.website ?? undefined,
        private: request.private ?? undefined,
        archived: request.archived ?? undefined,
        default_branch: request.default_branch ?? undefined,
        template: request.template ?? undefined,
        has_issues: request.has_issues ?? undefined,
        has_wiki: request.has_wiki ?? undefined,
        has_pull_requests: request.has_pull_requests ?? undefined,
        has_projects: request.has_projects ?? undefined,
        has_releases: request.has_releases ?? undefined,
        has_packages: request.has_packages ?? undefined,
        has_actions: request.has_actions ?? undefined,
        has_code: request.has_code ?? undefined,
        pull_request_settings: request.pull_request_settings ? definedFields(request.pull_request_settings) : undefined,
        internal_tracker: request.internal_tracker ?? undefined,
      }, context.caller));
    },
    async DeleteRepository(request, context) {
      await deleteRepository(deps, await repositoryOf(store, request, context), context.caller);
      return {};
    },
    async SearchRepositories(request, { caller }) {
      if (request.owner_login) {
        const owner = await getOwner({ findById: store.findOwnerById, findByLogin: store.findOwnerByLogin }, { login: request.owner_login });
        // An owner the caller may not see does not exist for them (Gitea's user assignment);
        // a private organization is visible to its members.
        const hidden = (request.owner_is_org && owner.type !== 'organization')
          || (!isOwnerVisibleTo(owner, caller) && !(owner.type === 'organization' && (await store.memberTeamsOf(caller.userId, [owner.id], [])).length));
        if (hidden) throw notFound(`owner with login ${JSON.stringify(request.owner_login)} does not exist`, 'owner_not_found');
        request = { ...request, owner_id: owner.id };
      }
      const { items, total } = await searchRepositories(store, searchFilterOf(request, caller), caller);
      return { repositories: (await withParents(store, items)).map(accessReply), total };
    },
    async ForkRepository(request, context) {
      const base = await repositoryOf(store, refOf(request), context);
      return accessReply(await forkRepository(deps, base, { organization: request.organization, name: request.name }, context.caller));
    },
    async ListForks(request, context) {
      const { offset, limit } = pageOf(request.page);
      const { items, total } = await listForks(store, await repositoryOf(store, refOf(request), context), context.caller, offset, limit);
      return { repositories: items.map(accessReply), total };
    },
    async ListPullHeadRepositories(request, context) {
      const base = await repositoryOf(store, refOf(request), context);
      const heads = request.head?.owner ? { owner: request.head.owner, name: request.head.name } : { ids: request.ids.map(Number) };
      const items = await pullHeadRepositories(store, base, heads, context.caller);
      return { repositories: items.map(accessReply), total: items.length };
    },
    async ListCollaborators(request, context) {
      const { offset, limit } = pageOf(request.page);
      const { items, total } = await listCollaborators(store, await repositoryOf(store, refOf(request), context), offset, limit);
      return { collaborators: items.map((c) => ({ user_id: c.userId, login: c.login, permission: c.mode, user: ownerUserMessage(c.user) })), total };
    },
    async SetCollaborator(request, context) {
      await setCollaborator(store, await repositoryOf(store, refOf(request), context), request.collaborator, request.permission, context.caller);
      return {};
    },
    async RemoveCollaborator(request, context) {
      await removeCollaborator(store, await repositoryOf(store, refOf(request), context), request.collaborator, context.caller);
      return {};
    },
    async GetCollaborator(request, context) {
      const c = await getCollaborator(store, await repositoryOf(store, refOf(request), context), request.collaborator);
      return { user_id: c.userId, login: c.login, permission: c.mode, user: ownerUserMessage(c.user) };
    },
    async GetUserPermission(request, context) {
      const { user, permission } = await userPermission(store, await repositoryOf(store, refOf(request), context), request.collaborator, context.caller);
      return { user_id: user.id, login: user.login, permission, user: ownerUserMessage(user) };
    },
    async ListAssignees(request, { caller }) {
      return { users: (await listAssignees(store, request.owner, request.name, caller)).map(ownerUserMessage) };
    },
    async ListVisibleRepositories(request, { caller }) {
      const found = await visibleRepositories(store, caller, request.owner, request.team);
      return { repositories: found.map((r) => ({ id: r.id, owner_id: r.ownerId, owner_login: r.ownerLogin, name: r.name })) };
    },
  };
}

export function repositoryGrpcService(deps: RepositoryDeps) {
  return {
    name: REPOSITORY_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.RepositoryService.service,
    implementation: repositoryService(deps),
  };
}
