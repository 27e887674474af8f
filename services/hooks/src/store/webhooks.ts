// Webhooks in PostgreSQL (table `webhook`).
import type { SecretBox } from '@anvil/kit';
import type { HookEvent } from '../domain/hook-events.js';
import type { HookContentType, HookType } from '../domain/hook-types.js';
import type { HookScope, Webhook, WebhookStore } from '../domain/webhooks.js';
import type { Prisma, Webhook as WebhookRow } from './generated/client.js';
import type { HooksDb, HooksTx } from './db.js';
import { WEBHOOK_CHANNEL } from './hook-match-cache.js';

/** Tells every replica's hook cache that hooks changed (see hook-match-cache.ts). */
const announce = (db: HooksDb | HooksTx) => db.$executeRawUnsafe(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);

/**
 * A stored hook. Its secret and Authorization header are stored sealed (see
 * kit/crypto/secret-box.ts) and opened with `box`; without a box (matching events to hooks
 * needs neither) they are left empty.
 */
export function toWebhook(row: WebhookRow, box?: SecretBox): Webhook {
  return {
    id: Number(row.id), repoId: Number(row.repo_id), ownerId: Number(row.owner_id), isSystemWebhook: row.is_system_webhook,
    type: row.type as HookType, name: row.name, url: row.url, contentType: row.content_type as HookContentType,
    secret: box ? box.open(row.secret) : '', authorizationHeader: box ? box.open(row.authorization_header) : '', events: row.events as HookEvent[],
    branchFilter: row.branch_filter, meta: (row.meta ?? {}) as Record<string, string>, active: row.is_active,
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

export function whereScope(scope: HookScope): Prisma.WebhookWhereInput {
  switch (scope.kind) {
    case 'repository':
      return { repo_id: BigInt(scope.repoId) };
    case 'owner':
      return { owner_id: BigInt(scope.ownerId), repo_id: 0n };
    case 'site':
      return {
        repo_id: 0n, owner_id: 0n,
        ...(scope.list === 'all' ? {} : { is_system_webhook: scope.list === 'system' }),
      };
  }
}

export function webhookStore(db: HooksDb, box: SecretBox): WebhookStore {
  const open = (row: WebhookRow) => toWebhook(row, box);
  const seal = (value: string | undefined) => (value === undefined ? undefined : box.seal(value));
  return {
    async create(hook) {
      const row = await db.webhook.create({
        data: {
          repo_id: BigInt(hook.repoId), owner_id: BigInt(hook.ownerId), is_system_webhook: hook.isSystemWebhook,
          type: hook.type, name: hook.name, url: hook.url, content_type: hook.contentType, secret: box.seal(hook.secret),
          authorization_header: box.seal(hook.authorizationHeader), events: hook.events, branch_filter: hook.branchFilter,
          meta: hook.meta, is_active: hook.active,
        },
      });
      await announce(db);
      return open(row);
    },

    async find(scope, id) {
      // A site hook is found whichever kind the scope lists (GET /admin/hooks/{id}).
      const where = scope.kind === 'site' ? { repo_id: 0n, owner_id: 0n } : whereScope(scope);
      const row = await db.webhook.findFirst({ where: { ...where, id: BigInt(id) } });
      return row ? open(row) : undefined;
    },

    async list(scope, page) {
      const where = whereScope(scope);
      const [rows, total] = await Promise.all([
        db.webhook.findMany({ where, orderBy: { id: 'asc' }, skip: page.offset, take: page.limit }),
        db.webhook.count({ where }),
      ]);
      return { items: rows.map(open), total };
    },

    async update(id, changes) {
      const row = await db.webhook.update({
        where: { id: BigInt(id) },
        data: {
          url: changes.url, content_type: changes.contentType, secret: seal(changes.secret),
          authorization_header: seal(changes.authorizationHeader), events: changes.events, branch_filter: changes.branchFilter,
          meta: changes.meta, is_active: changes.active, name: changes.name,
        },
      });
      await announce(db);
      return open(row);
    },

    async remove(scope, id) {
      const where = scope.kind === 'site' ? { repo_id: 0n, owner_id: 0n } : whereScope(scope);
      // Its deliveries go with it (no foreign key: deliveries are pruned in bulk).
      return db.$transaction(async (tx) => {
        const { count } = await tx.webhook.deleteMany({ where: { ...where, id: BigInt(id) } });
        if (count) {
          await tx.hookDelivery.deleteMany({ where: { hook_id: BigInt(id) } });
          await announce(tx);
        }
        return count > 0;
      });
    },
  };
}

/** Removes a deleted repository's hooks and their deliveries (inside the event's transaction). */
export async function removeRepositoryHooks(tx: HooksTx, repoId: number): Promise<void> {
  const hooks = await tx.webhook.findMany({ where: { repo_id: BigInt(repoId) }, select: { id: true } });
  if (!hooks.length) return;
  const ids = hooks.map((h) => h.id);
  await tx.hookDelivery.deleteMany({ where: { hook_id: { in: ids } } });
  await tx.webhook.deleteMany({ where: { id: { in: ids } } });
  await announce(tx);
}

/**
 * Seals the secrets and Authorization headers stored in clear before they were encrypted at
 * rest. Run at start by every replica: the UPDATE only touches rows still in clear, so
 * replicas racing each other seal a row once (the last write wins with an equal value).
 */
export async function sealStoredSecrets(db: HooksDb, box: SecretBox): Promise<number> {
  const rows = await db.webhook.findMany({
    where: { OR: [{ secret: { not: '' } }, { authorization_header: { not: '' } }] },
    select: { id: true, secret: true, authorization_header: true },
  });
  let sealed = 0;
  for (const row of rows) {
    if ((row.secret === '' || box.isSealed(row.secret)) && (row.authorization_header === '' || box.isSealed(row.authorization_header))) continue;
    const { count } = await db.webhook.updateMany({
      where: { id: row.id, secret: row.secret, authorization_header: row.authorization_header },
      data: { secret: box.isSealed(row.secret) ? row.secret : box.seal(row.secret), authorization_header: box.isSealed(row.authorization_header) ? row.authorization_header : box.seal(row.authorization_header) },
    });
    sealed += count;
  }
  return sealed;
}
