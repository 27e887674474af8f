// Site administrators create, edit and delete accounts (Gitea's routers/api/v1/admin/user.go,
// services/user/update.go, models/user CreateUser), with Gitea's checks in Gitea's order
// and its error texts. Every change and its events commit together.
import { alreadyExists, DomainError, invalid, SYSTEM, type Caller, type Logger } from '@anvil/kit';
import { requireSiteAdmin, userNotFound, type Identity } from './context.js';
import { emailProblem, emailProblemMessage } from './email.js';
import { forgetFollowsOf } from './follows.js';
import { assertUsableLogin } from './login.js';
import { passwordLength, passwordTooShort } from './password.js';
import { UniqueViolation, type IdentityWriter } from './store.js';
import type { User, UserFields, Visibility } from './user.js';

export interface CreateUserInput {
  login: string;
  email: string;
  password: string;
  full_name: string;
  must_change_password: boolean;
  is_admin: boolean;
  /** Absent: [service] DEFAULT_USER_VISIBILITY. */
  visibility?: Visibility;
  restricted: boolean;
  login_name: string;
  source_id: number;
  created_at?: Date;
}

/** Only the fields present change, like Gitea's EditUserOption. */
export interface EditUserInput {
  login: string;
  email?: string;
  password?: string;
  full_name?: string;
  must_change_password?: boolean;
  admin?: boolean;
  active?: boolean;
  prohibit_login?: boolean;
  restricted?: boolean;
  location?: string;
  website?: string;
  description?: string;
  visibility?: Visibility;
  max_repo_creation?: number;
  allow_create_organization?: boolean;
  allow_git_hook?: boolean;
  allow_import_local?: boolean;
  login_name?: string;
  source_id?: number;
  language?: string;
}

/** Changing any of these changes what a credential grants: gateways must forget cached ones. */
const CREDENTIAL_FIELDS = ['passwd', 'is_admin', 'active', 'prohibit_login', 'restricted'] as const;

// Anvil has no external authentication sources yet, so any source id names a missing one.
function assertLocalSource(sourceId: number | undefined): void {
  if (sourceId) throw invalid(`login source does not exist [id: ${sourceId}]`, 'login_source_not_found');
}

const userExists = (login: string) => alreadyExists(`user already exists [name: ${login}]`, 'user_already_exists');
const emailUsed = (email: string) => alreadyExists(`e-mail already in use [email: ${email}]`, 'email_already_used');

/** Gitea truncates these to 255 characters on every update (User.BeforeUpdate). */
function truncate255(value: string): string {
  const chars = [...value];
  return chars.length > 255 ? chars.slice(0, 255).join('') : value;
}

export async function createUser(identity: Identity, caller: Caller, input: CreateUserInput): Promise<User> {
  requireSiteAdmin(caller);
  assertLocalSource(input.source_id);
  if (passwordLength(input.password) < identity.settings.minPasswordLength) throw passwordTooShort('PasswordIsRequired');
  assertUsableLogin(input.login);
  const problem = emailProblem(input.email);
  if (problem) throw invalid(emailProblemMessage(problem, input.email), 'email_invalid');
  const passwd = await identity.hasher.hash(input.password);
  const defaults = identity.settings.newUser;
  const fields: UserFields = {
    type: 'user',
    login: input.login,
    full_name: input.full_name,
    email: input.email,
    keep_email_private: defaults.keep_email_private,
    passwd,
    must_change_password: input.must_change_password,
    source_id: 0,
    login_name: input.login_name,
    location: '',
    website: '',
    description: '',
    language: '',
    visibility: input.visibility ?? defaults.visibility,
    is_admin: input.is_admin,
    // Accounts an administrator creates are active at once (Gitea's AdminCreateUser).
    active: true,
    restricted: input.restricted,
    prohibit_login: false,
    max_repo_creation: -1,
    allow_git_hook: false,
    allow_import_local: false,
    allow_create_organization: defaults.allow_create_organization,
    last_login: null,
  };
  return identity.store.transaction(async (tx) => {
    if (await tx.userByLogin(input.login)) throw userExists(input.login);
    if (await tx.emailAddress(input.email)) throw emailUsed(input.email);
    try {
      const user = await tx.insertUser(fields, input.created_at);
      await tx.insertEmail({ user_id: user.id, email: input.email, verified: true, is_primary: true });
      await tx.publish({ kind: 'user.created', user });
      return user;
    } catch (err) {
      // A concurrent request took the login or the address between our check and insert.
      if (err instanceof UniqueViolation) throw err.field === 'login' ? userExists(input.login) : emailUsed(input.email);
      throw err;
    }
  });
}

async function assertNotLastAdmin(tx: IdentityWriter, user: User, kind: 'invalid' | 'bad_request'): Promise<void> {
  if (user.is_admin && (await tx.countAdminsLocked()) <= 1) {
    throw new DomainError(kind, `can not delete the last admin user [uid: ${user.id}]`, 'last_admin');
  }
}

/** Makes `email` the user's primary address, replacing the old primary (Gitea's ReplacePrimaryEmailAddress). */
async function replacePrimaryEmail(tx: IdentityWriter, user: User, email: string): Promise<boolean> {
  if (email.toLowerCase() === user.email.toLowerCase()) return false;
  const existing = await tx.emailAddress(email);
  if (existing) {
    if (existing.is_primary && existing.user_id === user.id) return false;
    throw emailUsed(email);
  }
  const primary = (await tx.emailsOf(user.id)).find((e) => e.is_primary);
  if (primary) await tx.deleteEmail(primary.id);
  try {
    await tx.insertEmail({ user_id: user.id, email, verified: true, is_primary: true });
  } catch (err) {
    if (err instanceof UniqueViolation) throw emailUsed(email);
    throw err;
  }
  return true;
}

export async function editUser(identity: Identity, caller: Caller, input: EditUserInput): Promise<User> {
  requireSiteAdmin(caller);
  // Gitea's order: authentication (source, password), then the address, then the profile.
  assertLocalSource(input.source_id);
  let passwd: string | undefined;
  if (input.password !== undefined && input.password !== '') {
    const min = identity.settings.minPasswordLength;
    if (passwordLength(input.password) < min) throw passwordTooShort(`password must be at least ${min} characters`);
    passwd = await identity.hasher.hash(input.password);
  }
  if (input.email !== undefined) {
    const problem = emailProblem(input.email);
    if (problem) throw new DomainError('bad_request', emailProblemMessage(problem, input.email), 'email_invalid');
  }

  return identity.store.transaction(async (tx) => {
    const user = await tx.lockUserByLogin(input.login);
    if (!user || user.type !== 'user') throw userNotFound({ login: input.login });
    const patch: Partial<UserFields> = {};
    const set = <K extends keyof UserFields>(key: K, value: UserFields[K] | undefined) => {
      if (value !== undefined && value !== user[key]) patch[key] = value;
    };
    set('source_id', input.source_id);
    set('login_name', input.login_name);
    if (passwd !== undefined) patch.passwd = passwd;
    set('must_change_password', input.must_change_password);
    set('prohibit_login', input.prohibit_login);
    if (input.email !== undefined && (await replacePrimaryEmail(tx, user, input.email))) patch.email = input.email;
    set('full_name', input.full_name);
    set('website', input.website === undefined ? undefined : truncate255(input.website));
    set('location', input.location === undefined ? undefined : truncate255(input.location));
    set('description', input.description === undefined ? undefined : truncate255(input.description));
    set('active', input.active);
    if (input.admin === false && user.is_admin) await assertNotLastAdmin(tx, user, 'bad_request');
    set('is_admin', input.admin);
    set('visibility', input.visibility);
    set('allow_git_hook', input.allow_git_hook);
    set('allow_import_local', input.allow_import_local);
    set('max_repo_creation', input.max_repo_creation === undefined ? undefined : Math.max(input.max_repo_creation, -1));
    set('allow_create_organization', input.allow_create_organization);
    set('restricted', input.restricted);
    set('language', input.language);

    if (Object.keys(patch).length === 0) return user;
    const updated = await tx.updateUser(user.id, patch);
    await tx.publish({ kind: 'user.updated', user: updated });
    if (CREDENTIAL_FIELDS.some((field) => field in patch)) await tx.publish({ kind: 'credential.revoked', user_id: user.id });
    return updated;
  });
}

/**
 * Gives an account a new login (Gitea's services/user RenameUser): a change of case only is
 * allowed; a taken, reserved or malformed name is refused (422). Other services follow the
 * new login on identity.user.updated.
 */
export async function renameUser(identity: Identity, caller: Caller, login: string, newLogin: string): Promise<User> {
  requireSiteAdmin(caller);
  return identity.store.transaction(async (tx) => {
    const user = login ? await tx.lockUserByLogin(login) : undefined;
    if (!user) throw userNotFound({ login });
    if (user.type === 'organization') throw invalid(`${user.login} is an organization not a user`, 'is_organization');
    if (newLogin === user.login) return user;
    assertUsableLogin(newLogin);
    const holder = await tx.userByLogin(newLogin);
    if (holder && holder.id !== user.id) throw userExists(newLogin);
    try {
      const updated = await tx.updateUser(user.id, { login: newLogin });
      await tx.publish({ kind: 'user.updated', user: updated });
      // Basic credentials name the login: cached ones under the old name must go.
      await tx.publish({ kind: 'credential.revoked', user_id: user.id });
      return updated;
    } catch (err) {
      if (err instanceof UniqueViolation) throw userExists(newLogin);
      throw err;
    }
  });
}

/**
 * Deletes an account with its addresses and tokens. What other services hold (repositories,
 * memberships) they remove on `identity.user.deleted`.
 */
export async function deleteUser(identity: Identity, caller: Caller, login: string): Promise<void> {
  requireSiteAdmin(caller);
  await identity.store.transaction((tx) => deleteUserIn(tx, caller, login));
}

/**
 * The deletion inside the caller's transaction. `leaveOrgs` (a purge) takes the user out of
 * their organizations first; without it a member of any organization is refused.
 */
export async function deleteUserIn(
  tx: IdentityWriter, caller: Caller, login: string, leaveOrgs?: (user: User) => Promise<void>,
): Promise<void> {
  requireSiteAdmin(caller);
  const user = login ? await tx.lockUserByLogin(login) : undefined;
  if (!user) throw userNotFound({ login });
  if (user.type === 'organization') throw invalid(`${user.login} is an organization not a user`, 'is_organization');
  if (user.id === caller.userId) throw invalid('you cannot delete yourself', 'delete_self');
  await assertNotLastAdmin(tx, user, 'invalid');
  if (leaveOrgs) await leaveOrgs(user);
  // Gitea's ErrUserHasOrgs: leave (or be removed from) every organization first. Adding a
  // team member locks the user row too, so no membership can slip in after this check.
  if ((await tx.countOrgMemberships(user.id)) > 0) {
    throw invalid(`user still has membership of organizations [uid: ${user.id}]`, 'user_has_orgs');
  }
  await forgetFollowsOf(tx, user.id);
  await tx.deleteUser(user.id);
  await tx.publish({ kind: 'user.deleted', user_id: user.id, login: user.login });
  await tx.publish({ kind: 'credential.revoked', user_id: user.id });
}

export interface AdminAccount {
  username: string;
  password: string;
  email: string;
}

/**
 * Creates the configured site administrator unless that login exists (ANVIL_ADMIN_*).
 * Idempotent, and safe when replicas start together: the loser of the race meets the
 * unique login and takes the account as created.
 */
export async function bootstrapAdmin(identity: Identity, admin: AdminAccount, log: Logger): Promise<'created' | 'exists'> {
  if (await identity.store.userByLogin(admin.username)) return 'exists';
  try {
    await createUser(identity, SYSTEM, {
      login: admin.username,
      email: admin.email,
      password: admin.password,
      full_name: '',
      must_change_password: false,
      is_admin: true,
      restricted: false,
      login_name: '',
      source_id: 0,
    });
  } catch (err) {
    // Replicas starting together race past the check above; whichever unique constraint the
    // loser trips (login or e-mail), the admin now exists if a row has that login.
    if (err instanceof DomainError && err.kind === 'already_exists' && (await identity.store.userByLogin(admin.username))) return 'exists';
    throw err;
  }
  log.info({ login: admin.username }, 'created the site administrator');
  return 'created';
}
