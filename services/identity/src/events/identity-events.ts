// What identity publishes (proto/anvil/identity/v1/identity_events.proto), as outbox rows
// written in the transaction of the change: subjects are context-relative
// (`identity.user.created` → `<namespace>.identity.user.created` on the stream).
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import type { IdentityEvent } from '../domain/store.js';
import { userMessage } from '../grpc/messages.js';

export const IDENTITY_SUBJECTS = {
  userCreated: 'identity.user.created',
  userUpdated: 'identity.user.updated',
  userDeleted: 'identity.user.deleted',
  credentialRevoked: 'identity.credential.revoked',
} as const;

export const IDENTITY_EVENT_TYPES = {
  userCreated: 'anvil.identity.v1.UserCreated',
  userUpdated: 'anvil.identity.v1.UserUpdated',
  userDeleted: 'anvil.identity.v1.UserDeleted',
  credentialRevoked: 'anvil.identity.v1.CredentialRevoked',
} as const;

export function outboxRowOf(event: IdentityEvent): OutboxEventRow {
  switch (event.kind) {
    case 'user.created':
      return outboxEvent(IDENTITY_SUBJECTS.userCreated, IDENTITY_EVENT_TYPES.userCreated, { user: userMessage(event.user) } satisfies identity.UserCreatedInput);
    case 'user.updated':
      return outboxEvent(IDENTITY_SUBJECTS.userUpdated, IDENTITY_EVENT_TYPES.userUpdated, { user: userMessage(event.user) } satisfies identity.UserUpdatedInput);
    case 'user.deleted':
      return outboxEvent(IDENTITY_SUBJECTS.userDeleted, IDENTITY_EVENT_TYPES.userDeleted,
        { user_id: event.user_id, login: event.login } satisfies identity.UserDeletedInput);
    case 'credential.revoked':
      return outboxEvent(IDENTITY_SUBJECTS.credentialRevoked, IDENTITY_EVENT_TYPES.credentialRevoked,
        { user_id: event.user_id, token_hash: event.token_hash ?? '' } satisfies identity.CredentialRevokedInput);
  }
}
