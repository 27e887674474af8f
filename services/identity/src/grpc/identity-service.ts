// anvil.identity.v1.IdentityService: decode the request, call the domain, encode the reply.
import type { Caller, ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { createAccessToken, deleteAccessToken, listAccessTokens } from '../domain/access-tokens.js';
import { createUser, deleteUser, editUser, renameUser } from '../domain/accounts.js';
import { authenticate, type Credential } from '../domain/authenticate.js';
import type { Identity } from '../domain/context.js';
import { addEmails, deleteEmails, listEmails } from '../domain/emails.js';
import { followUser, isFollowing, listFollowers, listFollowing, unfollowUser, type Follow } from '../domain/follows.js';
import { getUser, getUsers, getUsersByEmails, searchUsers, type UserKey } from '../domain/users.js';
import { accessTokenMessage, dateOf, emailMessage, userMessage, visibilityOf } from './messages.js';

export const IDENTITY_SERVICE_NAME = 'anvil.identity.v1.IdentityService';

// Generated `...ServiceHandlers` extend grpc-js's UntypedServiceImplementation, whose string
// index signature the kit's ServiceImplementation maps to `never`; keep the declared methods.
type DeclaredMethods<H> = { [K in keyof H as string extends K ? never : K]: H[K] };
export type IdentityServiceImplementation = ServiceImplementation<DeclaredMethods<identity.IdentityServiceHandlers>>;

function credentialOf(request: identity.AuthenticateRequest): Credential | undefined {
  if (request.credential === 'token') return { kind: 'token', token: request.token ?? '' };
  if (request.credential === 'basic' && request.basic) {
    return { kind: 'basic', username: request.basic.username, password: request.basic.password };
  }
  return undefined;
}

const followOf = (request: identity.Follow): Follow => ({ user_id: Number(request.user_id), follow_id: Number(request.follow_id) });

function userKeyOf(request: identity.GetUserRequest): UserKey | undefined {
  if (request.key === 'id') return { id: Number(request.id) };
  if (request.key === 'login') return { login: request.login ?? '' };
  return undefined;
}

/** What identity's other services contribute to account operations (main.ts wires them). */
export interface IdentityServiceOptions {
  /** A purging deletion, which also leaves the user's organizations (OrgService's rules). */
  purgeUser?(caller: Caller, login: string): Promise<void>;
}

export function identityService(ctx: Identity, options: IdentityServiceOptions = {}): IdentityServiceImplementation {
  return {
    async Authenticate(request) {
      const result = await authenticate(ctx, credentialOf(request));
      return { user: userMessage(result.user), scopes: result.scopes, method: result.method, token_hash: result.token_hash };
    },

    async GetUser(request) {
      return userMessage(await getUser(ctx, userKeyOf(request)));
    },

    async GetUsers(request) {
      const users = await getUsers(ctx, request.ids.map(Number), request.logins);
      return { users: users.map(userMessage) };
    },

    async GetUsersByEmails(request) {
      const owners = await getUsersByEmails(ctx, request.emails);
      return { users: owners.map(({ email, user }) => ({ email, user: userMessage(user) })) };
    },

    async SearchUsers(request, { caller }) {
      const page = await searchUsers(ctx, caller, {
        q: request.q,
        uid: Number(request.uid),
        page: request.page,
        include_all: request.include_all,
        login_name: request.login_name,
        source_id: Number(request.source_id),
        sort: request.sort,
      });
      return { users: page.items.map(userMessage), total: page.total };
    },

    async CreateUser(request, { caller }) {
      const user = await createUser(ctx, caller, {
        login: request.login,
        email: request.email,
        password: request.password,
        full_name: request.full_name,
        must_change_password: request.must_change_password,
        is_admin: request.is_admin,
        visibility: visibilityOf(request.visibility),
        restricted: request.restricted,
        login_name: request.login_name,
        source_id: Number(request.source_id),
        created_at: dateOf(request.created_at),
      });
      return userMessage(user);
    },

    async EditUser(request, { caller }) {
      const user = await editUser(ctx, caller, {
        login: request.login,
        email: request.email,
        password: request.password,
        full_name: request.full_name,
        must_change_password: request.must_change_password,
        admin: request.admin,
        active: request.active,
        prohibit_login: request.prohibit_login,
        restricted: request.restricted,
        location: request.location,
        website: request.website,
        description: request.description,
        visibility: visibilityOf(request.visibility),
        max_repo_creation: request.max_repo_creation,
        allow_create_organization: request.allow_create_organization,
        allow_git_hook: request.allow_git_hook,
        allow_import_local: request.allow_import_local,
        login_name: request.login_name,
        source_id: request.source_id === undefined ? undefined : Number(request.source_id),
        language: request.language,
      });
      return userMessage(user);
    },

    async RenameUser(request, { caller }) {
      return userMessage(await renameUser(ctx, caller, request.login, request.new_login));
    },

    async DeleteUser(request, { caller }) {
      // Other services clean up what they hold on identity.user.deleted; a purge also takes
      // the user out of their organizations here first.
      if (request.purge && options.purgeUser) await options.purgeUser(caller, request.login);
      else await deleteUser(ctx, caller, request.login);
      return {};
    },

    async ListEmails(request, { caller }) {
      return { emails: (await listEmails(ctx, caller, Number(request.user_id))).map(emailMessage) };
    },

    async AddEmails(request, { caller }) {
      return { emails: (await addEmails(ctx, caller, Number(request.user_id), request.emails)).map(emailMessage) };
    },

    async DeleteEmails(request, { caller }) {
      await deleteEmails(ctx, caller, Number(request.user_id), request.emails);
      return {};
    },

    async CreateAccessToken(request, { caller }) {
      return accessTokenMessage(await createAccessToken(ctx, caller, Number(request.user_id), request.name, request.scopes));
    },

    async ListAccessTokens(request, { caller }) {
      const page = await listAccessTokens(ctx, caller, Number(request.user_id), request.page);
      return { tokens: page.items.map(accessTokenMessage), total: page.total };
    },

    async DeleteAccessToken(request, { caller }) {
      await deleteAccessToken(ctx, caller, Number(request.user_id), request.id_or_name);
      return {};
    },

    async FollowUser(request, { caller }) {
      await followUser(ctx, caller, followOf(request));
      return {};
    },

    async UnfollowUser(request, { caller }) {
      await unfollowUser(ctx, caller, followOf(request));
      return {};
    },

    async IsFollowing(request) {
      return { following: await isFollowing(ctx, followOf(request)) };
    },

    async ListFollowers(request, { caller }) {
      const page = await listFollowers(ctx, caller, Number(request.user_id), request.page);
      return { users: page.items.map(userMessage), total: page.total };
    },

    async ListFollowing(request, { caller }) {
      const page = await listFollowing(ctx, caller, Number(request.user_id), request.page);
      return { users: page.items.map(userMessage), total: page.total };
    },
  };
}

export function identityGrpcService(ctx: Identity, options: IdentityServiceOptions = {}) {
  return {
    name: IDENTITY_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.identity.v1.IdentityService.service,
    implementation: identityService(ctx, options),
  };
}
