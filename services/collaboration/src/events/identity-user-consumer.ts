// Consumes identity's user events (identity.user.created|updated|deleted) into the user read
// model, as the repository service keeps its owners. One durable consumer shared by every
// replica; the kit runs `handle` inside the processed-event transaction.
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import type { CollaborationTx } from '../store/db.js';
import { forgetUser, putUser } from '../store/users.js';

export const IDENTITY_USER_CONSUMER = 'collaboration-identity-user';

export function identityUserConsumer(log: Logger): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: IDENTITY_USER_CONSUMER,
    filter: 'identity.user.>',
    async handle(event, tx) {
      switch (event.subject) {
        case 'identity.user.created':
        case 'identity.user.updated': {
          const user = (event.payload as identity.UserCreated | undefined)?.user;
          if (!user?.id || !user.login) break;
          await putUser(tx, { ...(user as unknown as Record<string, unknown>), id: Number(user.id), login: user.login, type: user.type });
          return;
        }
        case 'identity.user.deleted': {
          const id = Number((event.payload as identity.UserDeleted | undefined)?.user_id);
          if (!id) break;
          await forgetUser(tx, id);
          return;
        }
        default:
          return; // a user event collaboration has no use for
      }
      // Retrying cannot fix a payload; skip it rather than block on it forever.
      log.warn({ id: event.id, subject: event.subject }, 'ignoring malformed identity user event');
    },
  };
}
