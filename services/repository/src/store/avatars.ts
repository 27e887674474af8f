// Repository avatars in PostgreSQL (table `repository_avatar`, at most one per repository)
// with the repository row's `avatar` naming it, both changed in one transaction.
import type { AvatarStore } from '../domain/avatars.js';
import type { RepositoryDb } from './db.js';

export function avatarStore(db: RepositoryDb): AvatarStore {
  return {
    async save(repositoryId, name, image) {
      const id = BigInt(repositoryId);
      const row = { name, content_type: image.contentType, data: Buffer.from(image.data), created_at: new Date() };
      await db.$transaction([
        db.repositoryAvatar.upsert({ where: { repository_id: id }, create: { repository_id: id, ...row }, update: row }),
        db.$executeRaw`UPDATE repository SET avatar = ${name} WHERE id = ${id}`,
      ]);
    },

    async remove(repositoryId) {
      const id = BigInt(repositoryId);
      await db.$transaction([
        db.repositoryAvatar.deleteMany({ where: { repository_id: id } }),
        db.$executeRaw`UPDATE repository SET avatar = '' WHERE id = ${id}`,
      ]);
    },

    async find(name) {
      const row = await db.repositoryAvatar.findUnique({ where: { name }, select: { content_type: true, data: true } });
      return row ? { contentType: row.content_type, data: new Uint8Array(row.data) } : undefined;
    },
  };
}
