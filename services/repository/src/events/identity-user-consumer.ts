// Consumes identity's user events (identity.user.created|updated|deleted) into the owner
// read model. One durable consumer shared by every replica; the kit runs `handle` inside
// the processed-event transaction, so a redelivered event is applied once.
import type { ConsumerOptions, Logger, ReceivedEvent } from '@anvil/kit';
import { visibilityName, type identity } from '@anvil/proto';
import type { Owner } from '../domain/owner.js';
import { applyOwnerChange, type OwnerChange } from '../domain/owner-read-model.js';
import type { RepositoryTx } from '../store/db.js';
import { ownerReader, ownerWriter } from '../store/owners.js';
import { removeOwnerRepositories, renameOwnerRepositories } from '../store/repositories.js';
import type { RepositoryStorage } from '../git/storage.js';
import { forgetStars } from '../store/stars.js';

export const IDENTITY_USER_CONSUMER = 'repository-identity-user';

/** The owner an identity User describes, or undefined when the payload lacks an id or login. */
export function ownerFromUser(user: identity.User | null | undefined): Owner | undefined {
  if (!user || !user.id || !user.login) return undefined;
  return {
    id: Number(user.id),
    login: user.login,
    type: user.type === 'organization' ? 'organization' : 'user',
    isAdmin: user.is_admin,
    restricted: user.restricted,
    visibility: visibilityName(user.visibility) ?? 'public',
    fullName: user.full_name,
    email: user.email,
    maxRepoCreation: user.max_repo_creation ?? -1,
    profile: { ...user } as Record<string, unknown>,
  };
}

/** The read-model change an event asks for; undefined for subjects this consumer does not use. */
export function ownerChangeOf(event: ReceivedEvent): OwnerChange | undefined | 'malformed' {
  switch (event.subject) {
    case 'identity.user.created':
    case 'identity.user.updated': {
      const owner = ownerFromUser((event.payload as identity.UserCreated | identity.UserUpdated | undefined)?.user);
      if (!owner) return 'malformed';
      return { kind: event.subject === 'identity.user.created' ? 'created' : 'updated', owner };
    }
    case 'identity.user.deleted': {
      const id = Number((event.payload as identity.UserDeleted | undefined)?.user_id);
      return id ? { kind: 'deleted', id } : 'malformed';
    }
    default:
      return undefined;
  }
}

/**
 * @param storage where git data lives: a renamed user's repositories move with the login
 *   (Gitea renames the owner directory too). Omitted in tests of the read model alone.
 */
export function identityUserConsumer(log: Logger, storage?: RepositoryStorage): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: IDENTITY_USER_CONSUMER,
    filter: 'identity.user.>',
    async handle(event, tx) {
      const change = ownerChangeOf(event);
      if (change === undefined) return; // a user event repository has no use for
      if (change === 'malformed') {
        // Retrying cannot fix a payload; skip it rather than block on it forever.
        log.warn({ id: event.id, subject: event.subject, type: event.type }, 'ignoring malformed identity user event');
        return;
      }
      const previous = change.kind === 'created' ? undefined : await ownerReader(tx).findById(change.kind === 'deleted' ? change.id : change.owner.id);
      const outcome = await applyOwnerChange(ownerWriter(tx), change);
      if (outcome === 'applied' && change.kind === 'deleted' && previous) {
        // Identity does not know about repositories, so it cannot refuse to delete their
        // owner as Gitea does: the repositories go with the owner rather than stay
        // unreachable, and the user's grants and stars on other repositories go too.
        await tx.collaboration.deleteMany({ where: { user_id: BigInt(change.id) } });
        await tx.orgTeamMember.deleteMany({ where: { user_id: BigInt(change.id) } });
        await forgetStars(tx, change.id);
        const removed = await removeOwnerRepositories(tx, change.id);
        // Last, so a failure rolls the transaction back and the event is retried.
        if (removed.length) await storage?.removeOwner(previous.login);
      }
      if (outcome === 'applied' && change.kind === 'updated' && previous && previous.login !== change.owner.login) {
        await renameOwnerRepositories(tx, change.owner.id, change.owner.login);
        // Last, so a failed move rolls the transaction back and the event is retried.
        await storage?.moveOwner(previous.login, change.owner.login);
      }
      if (outcome === 'ignored_stale') {
        log.info({ id: event.id, subject: event.subject }, 'ignoring a user event that arrived after the user was deleted');
      }
    },
  };
}
