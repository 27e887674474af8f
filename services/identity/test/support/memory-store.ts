// An in-memory IdentityStore for the domain's unit tests: the same contract as the
// PostgreSQL store (case-insensitive logins and addresses, unique names, transactions that
// commit all or nothing, events recorded on commit).
import type { Identity, IdentitySettings } from '../../src/domain/context.js';
import type { PasswordHasher } from '../../src/domain/password.js';
import {
  UniqueViolation, type IdentityEvent, type IdentityReader, type IdentityStore, type IdentityWriter, type UserSearch,
} from '../../src/domain/store.js';
import type { AccessToken, EmailAddress, Paged, User, UserFields } from '../../src/domain/user.js';

interface State {
  users: Map<number, User>;
  emails: Map<number, EmailAddress>;
  tokens: Map<number, AccessToken>;
  nextId: number;
  /** Organizations each user belongs to (the org rules have their own tests against PostgreSQL). */
  orgMemberships: Map<number, number>;
  /** Follow rows in the order made (visibility of the lists is tested against PostgreSQL). */
  follows: Array<{ user_id: number; follow_id: number }>;
}

const page = <T>(items: T[], p: { page: number; limit: number }): Paged<T> =>
  ({ items: items.slice((p.page - 1) * p.limit, p.page * p.limit), total: items.length });

function matchesSearch(user: User, s: UserSearch): boolean {
  if (user.type !== 'user') return false;
  if (s.keyword) {
    const kw = s.keyword.toLowerCase();
    const emailSearchable = s.email_match.scope === 'all'
      || (s.email_match.scope === 'public' && (!user.keep_email_private || user.id === s.email_match.owner_id));
    const hit = user.login.toLowerCase().includes(kw) || user.full_name.toLowerCase().includes(kw)
      || (emailSearchable && user.email.toLowerCase().includes(kw));
    if (!hit) return false;
  }
  if (s.visible.scope === 'some' && !s.visible.visibilities.includes(user.visibility) && user.id !== s.visible.user_id) return false;
  if (s.only_active && (!user.active || user.prohibit_login)) return false;
  if (s.id !== undefined && user.id !== s.id) return false;
  if (s.login_name !== undefined && user.login_name !== s.login_name) return false;
  if (s.source_id !== undefined && user.source_id !== s.source_id) return false;
  return true;
}

function sortUsers(users: User[], sort: UserSearch['sort']): User[] {
  const by = {
    id: (a: User, b: User) => a.id - b.id,
    alphabetically: (a: User, b: User) => a.login.toLowerCase().localeCompare(b.login.toLowerCase()),
    reversealphabetically: (a: User, b: User) => b.login.toLowerCase().localeCompare(a.login.toLowerCase()),
    newest: (a: User, b: User) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id,
    oldest: (a: User, b: User) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id,
    recentupdate: (a: User, b: User) => b.updated_at.getTime() - a.updated_at.getTime() || b.id - a.id,
    leastupdate: (a: User, b: User) => a.updated_at.getTime() - b.updated_at.getTime() || a.id - b.id,
  }[sort];
  return [...users].sort(by);
}

function readerOf(state: () => State): IdentityReader {
  const users = () => [...state().users.values()];
  return {
    async userById(id) { return state().users.get(id); },
    async userByLogin(login) { return users().find((u) => u.login.toLowerCase() === login.toLowerCase()); },
    async userByEmail(email) {
      const address = [...state().emails.values()].find((e) => e.email.toLowerCase() === email.toLowerCase());
      return address && state().users.get(address.user_id);
    },
    async usersByIdsOrLogins(ids, logins) {
      const lower = logins.map((l) => l.toLowerCase());
      return users().filter((u) => ids.includes(u.id) || lower.includes(u.login.toLowerCase())).sort((a, b) => a.id - b.id);
    },
    async usersByEmails(lowerEmails) {
      return [...state().emails.values()].filter((e) => e.verified && lowerEmails.includes(e.email.toLowerCase()))
        .flatMap((e) => { const user = state().users.get(e.user_id); return user ? [{ email: e.email.toLowerCase(), user }] : []; });
    },
    async searchUsers(search) { return page(sortUsers(users().filter((u) => matchesSearch(u, search)), search.sort), search.page); },
    async credentialByTokenHash(hash) {
      const token = [...state().tokens.values()].find((t) => t.token_hash === hash);
      const user = token && state().users.get(token.user_id);
      return token && user ? { token, user } : undefined;
    },
    async emailsOf(userId) { return [...state().emails.values()].filter((e) => e.user_id === userId).sort((a, b) => a.id - b.id); },
    async emailAddress(email) { return [...state().emails.values()].find((e) => e.email.toLowerCase() === email.toLowerCase()); },
    async accessTokens(userId, p) {
      const tokens = [...state().tokens.values()].filter((t) => t.user_id === userId)
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || b.id - a.id);
      return page(tokens, p);
    },
    async countOrgMemberships(userId) { return state().orgMemberships.get(userId) ?? 0; },
    async accessTokensNamed(userId, name) { return [...state().tokens.values()].filter((t) => t.user_id === userId && t.name === name); },
    async isFollowing(userId, followId) { return state().follows.some((f) => f.user_id === userId && f.follow_id === followId); },
    async followers(userId, _viewer, p) {
      return page(state().follows.filter((f) => f.follow_id === userId).flatMap((f) => state().users.get(f.user_id) ?? []).filter((u) => u.type === 'user'), p);
    },
    async following(userId, _viewer, p) {
      return page(state().follows.filter((f) => f.user_id === userId).flatMap((f) => state().users.get(f.follow_id) ?? []), p);
    },
  };
}

/** Moves a user's follow counts in `state`; answers the user as it is now. */
function moveFollowCounts(state: State, userId: number, field: 'num_followers' | 'num_following', delta: 1 | -1): User {
  const user = state.users.get(userId)!;
  user[field] = Math.max(user[field] + delta, 0);
  return user;
}

export class MemoryStore implements IdentityStore {
  private state: State = { users: new Map(), emails: new Map(), tokens: new Map(), nextId: 1, orgMemberships: new Map(), follows: [] };
  /** Events of committed transactions, in order. */
  readonly published: IdentityEvent[] = [];
  readonly touched: number[] = [];

  private readonly read = readerOf(() => this.state);
  userById = this.read.userById;
  userByLogin = this.read.userByLogin;
  userByEmail = this.read.userByEmail;
  usersByIdsOrLogins = this.read.usersByIdsOrLogins;
  usersByEmails = this.read.usersByEmails;
  searchUsers = this.read.searchUsers;
  credentialByTokenHash = this.read.credentialByTokenHash;
  emailsOf = this.read.emailsOf;
  emailAddress = this.read.emailAddress;
  accessTokens = this.read.accessTokens;
  accessTokensNamed = this.read.accessTokensNamed;
  countOrgMemberships = this.read.countOrgMemberships;
  isFollowing = this.read.isFollowing;
  followers = this.read.followers;
  following = this.read.following;

  /** Makes the user a member of `count` organizations. */
  setOrgMemberships(userId: number, count: number): void {
    this.state.orgMemberships.set(userId, count);
  }

  async touchAccessToken(id: number, at: Date): Promise<void> {
    const token = this.state.tokens.get(id);
    if (token) token.updated_at = at;
    this.touched.push(id);
  }

  setTokenUpdated(id: number, at: Date): void {
    this.state.tokens.get(id)!.updated_at = at;
  }

  async transaction<T>(work: (tx: IdentityWriter) => Promise<T>): Promise<T> {
    const draft: State = structuredClone(this.state);
    const events: IdentityEvent[] = [];
    const id = () => draft.nextId++;
    const tx: IdentityWriter = {
      ...readerOf(() => draft),
      lockUserByLogin: (login) => readerOf(() => draft).userByLogin(login),
      lockUserById: async (userId) => draft.users.get(userId),
      countAdminsLocked: async () => [...draft.users.values()].filter((u) => u.is_admin && u.type === 'user').length,
      async insertUser(fields: UserFields, created?: Date) {
        if ([...draft.users.values()].some((u) => u.login.toLowerCase() === fields.login.toLowerCase())) throw new UniqueViolation('login');
        const now = created ?? new Date();
        const user: User = { ...fields, id: id(), num_stars: 0, num_followers: 0, num_following: 0, created_at: now, updated_at: now };
        draft.users.set(user.id, user);
        return user;
      },
      async updateUser(userId, patch) {
        const user: User = { ...draft.users.get(userId)!, ...patch, updated_at: new Date() };
        draft.users.set(userId, user);
        return user;
      },
      async deleteUser(userId) {
        draft.users.delete(userId);
        for (const [k, e] of draft.emails) if (e.user_id === userId) draft.emails.delete(k);
        for (const [k, t] of draft.tokens) if (t.user_id === userId) draft.tokens.delete(k);
      },
      async insertEmail(email) {
        if ([...draft.emails.values()].some((e) => e.email.toLowerCase() === email.email.toLowerCase())) throw new UniqueViolation('email');
        const address = { ...email, id: id() };
        draft.emails.set(address.id, address);
        return address;
      },
      async deleteEmail(emailId) { draft.emails.delete(emailId); },
      async insertAccessToken(token) {
        if ([...draft.tokens.values()].some((t) => t.user_id === token.user_id && t.name === token.name)) throw new UniqueViolation('token_name');
        const now = new Date();
        const row: AccessToken = { ...token, id: id(), created_at: now, updated_at: now };
        draft.tokens.set(row.id, row);
        return row;
      },
      async deleteAccessToken(tokenId, userId) {
        const token = draft.tokens.get(tokenId);
        if (!token || token.user_id !== userId) return undefined;
        draft.tokens.delete(tokenId);
        return token;
      },
      async addFollow(userId, followId) {
        if (!draft.users.has(userId) || !draft.users.has(followId)) return undefined;
        if (draft.follows.some((f) => f.user_id === userId && f.follow_id === followId)) return [];
        draft.follows.push({ user_id: userId, follow_id: followId });
        return [moveFollowCounts(draft, userId, 'num_following', 1), moveFollowCounts(draft, followId, 'num_followers', 1)];
      },
      async removeFollow(userId, followId) {
        const at = draft.follows.findIndex((f) => f.user_id === userId && f.follow_id === followId);
        if (at < 0) return [];
        draft.follows.splice(at, 1);
        return [moveFollowCounts(draft, userId, 'num_following', -1), moveFollowCounts(draft, followId, 'num_followers', -1)];
      },
      async forgetFollows(userId) {
        const gone = draft.follows.filter((f) => f.user_id === userId || f.follow_id === userId);
        draft.follows = draft.follows.filter((f) => !gone.includes(f));
        const changed = gone.map((f) => (f.user_id === userId
          ? moveFollowCounts(draft, f.follow_id, 'num_followers', -1)
          : moveFollowCounts(draft, f.user_id, 'num_following', -1)));
        return [...new Set(changed)];
      },
      async publish(event) { events.push(structuredClone(event)); },
    };
    const result = await work(tx);
    this.state = draft;
    this.published.push(...events);
    return result;
  }
}

/** Hashes nothing: a recognisable string, so unit tests run fast. Counts dummy verifications. */
export class FakeHasher implements PasswordHasher {
  dummyVerifications = 0;
  async hash(password: string) { return `hashed:${password}`; }
  async verify(passwd: string, password: string) { return passwd === `hashed:${password}`; }
  async verifyNothing(): Promise<false> {
    this.dummyVerifications++;
    return false;
  }
}

export const TEST_SETTINGS: IdentitySettings = {
  minPasswordLength: 8,
  defaultPageSize: 30,
  maxPageSize: 50,
  newUser: { keep_email_private: false, allow_create_organization: true, visibility: 'public' },
};

export function memoryIdentity(settings: Partial<IdentitySettings> = {}): Identity & { store: MemoryStore; hasher: FakeHasher } {
  return { store: new MemoryStore(), hasher: new FakeHasher(), settings: { ...TEST_SETTINGS, ...settings } };
}
