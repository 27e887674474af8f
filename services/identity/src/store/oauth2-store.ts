// OAuth2Store over PostgreSQL: applications, grants, codes and tokens. Writes run inside a
// transaction with the outbox rows of their events; the relay is woken after commit.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type {
  OAuth2Application, OAuth2AuthorizationCode, OAuth2Grant, OAuth2Reader, OAuth2Store, OAuth2Token, OAuth2Writer,
} from '../domain/oauth2.js';
import type { IdentityEvent } from '../domain/store.js';
import { outboxRowOf } from '../events/identity-events.js';
import type { IdentityDb, IdentityTx } from './db.js';
import type {
  OAuth2Application as ApplicationRow, OAuth2AuthorizationCode as CodeRow, OAuth2Grant as GrantRow, OAuth2Token as TokenRow,
} from './generated/client.js';
import { toUser } from './rows.js';

type Client = IdentityDb | IdentityTx;

function toApplication(row: ApplicationRow): OAuth2Application {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    name: row.name,
    client_id: row.client_id,
    client_secret_hash: row.client_secret_hash,
    redirect_uris: row.redirect_uris,
    confidential_client: row.confidential_client,
    skip_secondary_authorization: row.skip_secondary_authorization,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const toGrant = (row: GrantRow): OAuth2Grant =>
  ({ id: Number(row.id), user_id: Number(row.user_id), application_id: Number(row.application_id), scopes: row.scopes });

const toCode = (row: CodeRow): OAuth2AuthorizationCode => ({
  grant_id: Number(row.grant_id),
  code_hash: row.code_hash,
  redirect_uri: row.redirect_uri,
  code_challenge: row.code_challenge,
  code_challenge_method: row.code_challenge_method,
  valid_until: row.valid_until,
});

const toToken = (row: TokenRow): OAuth2Token => ({
  grant_id: Number(row.grant_id),
  access_token_hash: row.access_token_hash,
  refresh_token_hash: row.refresh_token_hash,
  access_expires: row.access_expires,
  refresh_expires: row.refresh_expires,
});

function reader(db: Client): OAuth2Reader {
  return {
    async applications(userId, page) {
      const where = { user_id: BigInt(userId) };
      const [rows, total] = await Promise.all([
        db.oAuth2Application.findMany({ where, orderBy: { id: 'asc' }, skip: (page.page - 1) * page.limit, take: page.limit }),
        db.oAuth2Application.count({ where }),
      ]);
      return { items: rows.map(toApplication), total };
    },
    async application(id) {
      const row = await db.oAuth2Application.findUnique({ where: { id: BigInt(id) } });
      return row ? toApplication(row) : undefined;
    },
    async applicationByClientId(clientId) {
      const row = await db.oAuth2Application.findUnique({ where: { client_id: clientId } });
      return row ? toApplication(row) : undefined;
    },
    async accessToken(accessTokenHash) {
      // One statement: token ⋈ grant ⋈ user (relationJoins), as for personal access tokens.
      const row = await db.oAuth2Token.findUnique({
        where: { access_token_hash: accessTokenHash },
        include: { grant: { include: { user: true } } },
        relationLoadStrategy: 'join',
      });
      return row ? { token: toToken(row), grant: toGrant(row.grant), user: toUser(row.grant.user) } : undefined;
    },
  };
}

function writer(tx: IdentityTx, published: IdentityEvent[]): OAuth2Writer {
  return {
    ...reader(tx),
    async insertApplication(fields) {
      return toApplication(await tx.oAuth2Application.create({ data: { ...fields, user_id: BigInt(fields.user_id) } }));
    },
    async updateApplication(id, patch) {
      const { user_id, ...rest } = patch;
      const data = { ...rest, ...(user_id === undefined ? {} : { user_id: BigInt(user_id) }), updated_at: new Date() };
      return toApplication(await tx.oAuth2Application.update({ where: { id: BigInt(id) }, data }));
    },
    async deleteApplication(id) {
      const grants = await tx.oAuth2Grant.findMany({ where: { application_id: BigInt(id) }, select: { user_id: true } });
      await tx.oAuth2Application.deleteMany({ where: { id: BigInt(id) } }); // grants, codes and tokens cascade
      return [...new Set(grants.map((g) => Number(g.user_id)))];
    },
    async saveGrant(userId, applicationId, scopes) {
      const key = { user_id: BigInt(userId), application_id: BigInt(applicationId) };
      const row = await tx.oAuth2Grant.upsert({
        where: { user_id_application_id: key },
        create: { ...key, scopes },
        update: { scopes, updated_at: new Date() },
      });
      return toGrant(row);
    },
    async insertCode(code) {
      await tx.oAuth2AuthorizationCode.create({ data: { ...code, grant_id: BigInt(code.grant_id) } });
    },
    async takeCode(codeHash) {
      const row = await tx.oAuth2AuthorizationCode.findUnique({ where: { code_hash: codeHash }, include: { grant: true } });
      if (!row) return undefined;
      // Only the transaction whose delete removed the row may use the code.
      const { count } = await tx.oAuth2AuthorizationCode.deleteMany({ where: { id: row.id } });
      return count === 1 ? { code: toCode(row), grant: toGrant(row.grant) } : undefined;
    },
    async insertToken(token) {
      await tx.oAuth2Token.create({ data: { ...token, grant_id: BigInt(token.grant_id) } });
    },
    async deleteExpired(grantId, now) {
      const grant_id = BigInt(grantId);
      await tx.oAuth2AuthorizationCode.deleteMany({ where: { grant_id, valid_until: { lte: now } } });
      await tx.oAuth2Token.deleteMany({ where: { grant_id, refresh_expires: { lte: now } } });
      await tx.oAuth2RotatedRefreshToken.deleteMany({ where: { grant_id, refresh_expires: { lte: now } } });
    },
    async recordRotatedRefreshToken(grantId, refreshTokenHash, refreshExpires) {
      await tx.oAuth2RotatedRefreshToken.create({
        data: { grant_id: BigInt(grantId), refresh_token_hash: refreshTokenHash, refresh_expires: refreshExpires },
      });
    },
    async rotatedRefreshTokenGrant(refreshTokenHash) {
      const row = await tx.oAuth2RotatedRefreshToken.findUnique({ where: { refresh_token_hash: refreshTokenHash }, include: { grant: true } });
      return row ? toGrant(row.grant) : undefined;
    },
    async deleteGrantTokens(grantId) {
      await tx.oAuth2Token.deleteMany({ where: { grant_id: BigInt(grantId) } });
    },
    async takeRefreshToken(refreshTokenHash) {
      const row = await tx.oAuth2Token.findUnique({ where: { refresh_token_hash: refreshTokenHash }, include: { grant: true } });
      if (!row) return undefined;
      const { count } = await tx.oAuth2Token.deleteMany({ where: { id: row.id } });
      return count === 1 ? { token: toToken(row), grant: toGrant(row.grant) } : undefined;
    },
    async publish(event) {
      await tx.outboxEvent.create({ data: outboxRowOf(event) });
      published.push(event);
    },
  };
}

export type OAuth2StoreOptions = OutboxStoreOptions;

export function oauth2Store(db: IdentityDb, options: OAuth2StoreOptions = {}): OAuth2Store {
  return {
    ...reader(db),
    transaction: (work) => outboxTransaction(db, writer, work, options),
  };
}
