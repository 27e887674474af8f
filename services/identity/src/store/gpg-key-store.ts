// GpgKeyStore over PostgreSQL: primary keys and their subkeys in one table (gpg_key).
import { TRANSACTION_OPTIONS } from '@anvil/kit';
import type { Page, Paged } from '../domain/user.js';
import { GpgKeyIdTaken, type GpgKey, type GpgKeyMaterial, type GpgKeyStore, type GpgSubkey } from '../domain/gpg-keys-store.js';
import { isUniqueViolation, type IdentityDb } from './db.js';
import type { GpgKey as GpgKeyRow } from './generated/client.js';

type RowWithSubkeys = GpgKeyRow & { subkeys: GpgKeyRow[] };

function materialOf(row: GpgKeyRow): GpgKeyMaterial {
  return {
    key_id: row.key_id,
    content: row.content,
    can_sign: row.can_sign,
    can_encrypt_comms: row.can_encrypt_comms,
    can_encrypt_storage: row.can_encrypt_storage,
    can_certify: row.can_certify,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

function toSubkey(row: GpgKeyRow): GpgSubkey {
  return { ...materialOf(row), id: Number(row.id), primary_key_id: row.primary_key_id };
}

function toGpgKey(row: RowWithSubkeys): GpgKey {
  return {
    ...materialOf(row),
    id: Number(row.id),
    owner_id: Number(row.owner_id),
    armored: row.armored,
    emails: row.emails,
    verified: row.verified,
    subkeys: [...row.subkeys].sort((a, b) => Number(a.id - b.id)).map(toSubkey),
  };
}

// One statement: primary keys joined with their subkeys (relationJoins).
const withSubkeys = { include: { subkeys: true }, relationLoadStrategy: 'join' } as const;

export function gpgKeyStore(db: IdentityDb): GpgKeyStore {
  return {
    async gpgKeysOf(ownerId, page?: Page): Promise<Paged<GpgKey>> {
      const where = { owner_id: BigInt(ownerId), primary_id: null };
      const [rows, total] = await Promise.all([
        db.gpgKey.findMany({
          where, orderBy: { id: 'asc' }, ...withSubkeys,
          ...(page ? { skip: (page.page - 1) * page.limit, take: page.limit } : {}),
        }),
        db.gpgKey.count({ where }),
      ]);
      return { items: rows.map(toGpgKey), total };
    },
    async gpgKey(ownerId, id) {
      const row = await db.gpgKey.findFirst({ where: { id: BigInt(id), owner_id: BigInt(ownerId), primary_id: null }, ...withSubkeys });
      return row ? toGpgKey(row) : undefined;
    },
    async gpgKeyByKeyId(ownerId, keyId) {
      const row = await db.gpgKey.findFirst({ where: { key_id: keyId, owner_id: BigInt(ownerId), primary_id: null }, ...withSubkeys });
      return row ? toGpgKey(row) : undefined;
    },
    async gpgKeyIdsUsed(keyIds) {
      return (await db.gpgKey.count({ where: { key_id: { in: keyIds } } })) > 0;
    },
    async insertGpgKeys(keys) {
      try {
        return await db.$transaction(async (tx) => {
          const added: GpgKey[] = [];
          for (const { subkeys, ...key } of keys) {
            const row = await tx.gpgKey.create({
              data: {
                ...key,
                owner_id: BigInt(key.owner_id),
                subkeys: {
                  create: subkeys.map((subkey) => ({
                    ...subkey, owner_id: BigInt(key.owner_id), primary_key_id: key.key_id, emails: [], verified: key.verified,
                  })),
                },
              },
              ...withSubkeys,
            });
            added.push(toGpgKey(row));
          }
          return added;
        }, TRANSACTION_OPTIONS);
      } catch (err) {
        if (isUniqueViolation(err)) throw new GpgKeyIdTaken();
        throw err;
      }
    },
    async deleteGpgKey(ownerId, id) {
      // Subkeys go with their primary key (ON DELETE CASCADE).
      const { count } = await db.gpgKey.deleteMany({ where: { id: BigInt(id), owner_id: BigInt(ownerId), primary_id: null } });
      return count === 1;
    },
    async markGpgKeyVerified(id) {
      await db.gpgKey.updateMany({ where: { OR: [{ id: BigInt(id) }, { primary_id: BigInt(id) }] }, data: { verified: true } });
    },
  };
}
