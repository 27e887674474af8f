// An in-memory OAuth2Store for the domain's unit tests: the same contract as the PostgreSQL
// store (cascading deletes, one grant per user and application, codes and refresh tokens
// taken once, transactions that commit all or nothing, events recorded on commit).
import type { Identity } from '../../src/domain/context.js';
import {
  DEFAULT_OAUTH2_SETTINGS, type OAuth2Application, type OAuth2AuthorizationCode, type OAuth2Context, type OAuth2Grant,
  type OAuth2Reader, type OAuth2Store, type OAuth2Token, type OAuth2Writer,
} from '../../src/domain/oauth2.js';
import type { IdentityEvent } from '../../src/domain/store.js';
import { memoryIdentity } from './memory-store.js';

interface State {
  applications: OAuth2Application[];
  grants: OAuth2Grant[];
  codes: OAuth2AuthorizationCode[];
  tokens: OAuth2Token[];
  rotated: Array<{ grant_id: number; refresh_token_hash: string; refresh_expires: Date }>;
  nextId: number;
}

export class MemoryOAuth2Store implements OAuth2Store {
  private state: State = { applications: [], grants: [], codes: [], tokens: [], rotated: [], nextId: 1 };
  readonly published: IdentityEvent[] = [];

  constructor(private readonly identity: Identity) {}

  get tokens(): readonly OAuth2Token[] {
    return this.state.tokens;
  }

  private reader(state: State): OAuth2Reader {
    const identity = this.identity;
    return {
      async applications(userId, page) {
        const mine = state.applications.filter((a) => a.user_id === userId).sort((a, b) => a.id - b.id);
        return { items: mine.slice((page.page - 1) * page.limit, page.page * page.limit).map((a) => structuredClone(a)), total: mine.length };
      },
      async application(id) {
        return structuredClone(state.applications.find((a) => a.id === id));
      },
      async applicationByClientId(clientId) {
        return structuredClone(state.applications.find((a) => a.client_id === clientId));
      },
      async accessToken(hash) {
        const token = state.tokens.find((t) => t.access_token_hash === hash);
        const grant = token && state.grants.find((g) => g.id === token.grant_id);
        const user = grant && await identity.store.userById(grant.user_id);
        return token && grant && user ? structuredClone({ token, grant, user }) : undefined;
      },
    };
  }

  async applications(userId: number, page: { page: number; limit: number }) { return this.reader(this.state).applications(userId, page); }
  async application(id: number) { return this.reader(this.state).application(id); }
  async applicationByClientId(clientId: string) { return this.reader(this.state).applicationByClientId(clientId); }
  async accessToken(hash: string) { return this.reader(this.state).accessToken(hash); }

  async transaction<T>(work: (tx: OAuth2Writer) => Promise<T>): Promise<T> {
    const draft: State = structuredClone(this.state);
    const events: IdentityEvent[] = [];
    const tx: OAuth2Writer = {
      ...this.reader(draft),
      async insertApplication(fields) {
        const now = new Date();
        const app = { ...structuredClone(fields), id: draft.nextId++, created_at: now, updated_at: now };
        draft.applications.push(app);
        return structuredClone(app);
      },
      async updateApplication(id, patch) {
        const app = draft.applications.find((a) => a.id === id)!;
        Object.assign(app, structuredClone(patch), { updated_at: new Date() });
        return structuredClone(app);
      },
      async deleteApplication(id) {
        const grants = draft.grants.filter((g) => g.application_id === id);
        const grantIds = new Set(grants.map((g) => g.id));
        draft.applications = draft.applications.filter((a) => a.id !== id);
        draft.grants = draft.grants.filter((g) => !grantIds.has(g.id));
        draft.codes = draft.codes.filter((c) => !grantIds.has(c.grant_id));
        draft.tokens = draft.tokens.filter((t) => !grantIds.has(t.grant_id));
        draft.rotated = draft.rotated.filter((r) => !grantIds.has(r.grant_id));
        return [...new Set(grants.map((g) => g.user_id))];
      },
      async saveGrant(userId, applicationId, scopes) {
        let grant = draft.grants.find((g) => g.user_id === userId && g.application_id === applicationId);
        if (grant) grant.scopes = [...scopes];
        else draft.grants.push(grant = { id: draft.nextId++, user_id: userId, application_id: applicationId, scopes: [...scopes] });
        return structuredClone(grant);
      },
      async insertCode(code) {
        draft.codes.push(structuredClone(code));
      },
      async takeCode(hash) {
        const code = draft.codes.find((c) => c.code_hash === hash);
        if (!code) return undefined;
        draft.codes = draft.codes.filter((c) => c !== code);
        return structuredClone({ code, grant: draft.grants.find((g) => g.id === code.grant_id)! });
      },
      async insertToken(token) {
        draft.tokens.push(structuredClone(token));
      },
      async deleteExpired(grantId, now) {
        draft.codes = draft.codes.filter((c) => c.grant_id !== grantId || c.valid_until > now);
        draft.tokens = draft.tokens.filter((t) => t.grant_id !== grantId || t.refresh_expires > now);
        draft.rotated = draft.rotated.filter((r) => r.grant_id !== grantId || r.refresh_expires > now);
      },
      async recordRotatedRefreshToken(grantId, hash, refreshExpires) {
        draft.rotated.push({ grant_id: grantId, refresh_token_hash: hash, refresh_expires: refreshExpires });
      },
      async rotatedRefreshTokenGrant(hash) {
        const rotated = draft.rotated.find((r) => r.refresh_token_hash === hash);
        return structuredClone(rotated && draft.grants.find((g) => g.id === rotated.grant_id));
      },
      async deleteGrantTokens(grantId) {
        draft.tokens = draft.tokens.filter((t) => t.grant_id !== grantId);
      },
      async takeRefreshToken(hash) {
        const token = draft.tokens.find((t) => t.refresh_token_hash === hash);
        if (!token) return undefined;
        draft.tokens = draft.tokens.filter((t) => t !== token);
        return structuredClone({ token, grant: draft.grants.find((g) => g.id === token.grant_id)! });
      },
      async publish(event) {
        events.push(structuredClone(event));
      },
    };
    const result = await work(tx);
    this.state = draft;
    this.published.push(...events);
    return result;
  }
}

/** An OAuth2 context over in-memory stores, with a clock the test can move. */
export function memoryOAuth2(): OAuth2Context & { store: MemoryOAuth2Store; clock: { now: Date } } {
  const identity = memoryIdentity();
  const store = new MemoryOAuth2Store(identity);
  identity.oauth2 = store;
  // Authenticate reads the real clock for access-token expiry, so the test clock starts at it.
  const clock = { now: new Date() };
  return { identity, store, settings: DEFAULT_OAUTH2_SETTINGS, clock, now: () => clock.now };
}
