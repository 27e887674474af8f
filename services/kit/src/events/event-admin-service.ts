// EventAdminService (proto/anvil/common/v1/event_admin.proto): every service serves it next
// to its own RPCs (service.ts), so `anvil admin events` can inspect and retry the outbox
// relay's dead letters of each. Only the system caller may: the CLI signs as it with the
// internal secret, and no gateway route leads here.
import type { common } from '@anvil/proto';
import { decodeEvent, loadAnvilGrpc } from '@anvil/proto';
import { DomainError, forbidden, notFound } from '../errors.js';
import { SYSTEM, type Caller } from '../grpc/caller.js';
import type { CallContext, ServiceImplementation } from '../grpc/server.js';
import { getDeadLetter, listDeadLetters, retryDeadLetters, type DeadLetterRow } from './dead-letters.js';
import { boundStrings } from './event-bounds.js';
import type { TransactionalSqlClient } from './sql.js';

function requireSystem(caller: Caller): void {
  if (caller.userId !== SYSTEM.userId || caller.login !== SYSTEM.login) throw forbidden('only the system caller may manage dead letters');
}

function message(row: DeadLetterRow): common.DeadLetterInput {
  return {
    id: row.id,
    subject: row.subject,
    type: row.type,
    payload_bytes: row.payload_bytes,
    created_at: { seconds: Math.floor(row.created_at.getTime() / 1000), nanos: (row.created_at.getTime() % 1000) * 1e6 },
    parked_at: { seconds: Math.floor(row.parked_at.getTime() / 1000), nanos: (row.parked_at.getTime() % 1000) * 1e6 },
    reason: row.reason,
  };
}

/** The payload as JSON for a person; strings beyond 1 KiB are shortened, so a 2 MiB field reads as its start. */
function readablePayload(type: string, payload: Uint8Array): string {
  try {
    return JSON.stringify(boundStrings(decodeEvent<object>(type, payload), 1024).value, null, 2);
  } catch (err) {
    return JSON.stringify({ undecodable: (err as Error).message, bytes: payload.length });
  }
}

export function eventAdminGrpcService(db: TransactionalSqlClient, onRetried: () => void) {
  const implementation: ServiceImplementation<common.EventAdminServiceHandlers> = {
    async ListDeadLetters(request, { caller }: CallContext) {
      requireSystem(caller);
      const { rows, total } = await listDeadLetters(db, request.limit || 50);
      return { dead_letters: rows.map(message), total };
    },
    async GetDeadLetter(request, { caller }: CallContext) {
      requireSystem(caller);
      const row = await getDeadLetter(db, request.id);
      if (!row) throw notFound(`no dead letter ${request.id}`);
      return { ...message(row), payload_json: readablePayload(row.type, row.payload) };
    },
    async RetryDeadLetters(request, { caller }: CallContext) {
      requireSystem(caller);
      if (!request.all && request.ids.length === 0) throw new DomainError('invalid', 'name the dead letters to retry, or all');
      const ids = await retryDeadLetters(db, request.all ? undefined : request.ids);
      if (ids.length) onRetried();
      return { ids };
    },
  };
  return {
    name: 'anvil.common.v1.EventAdminService',
    definition: loadAnvilGrpc().anvil.common.v1.EventAdminService.service,
    implementation,
  };
}
