// Domain values ↔ anvil.hooks.v1 messages.
import { invalid } from '@anvil/kit';
import { timestamp, type hooks } from '@anvil/proto';
import type { Delivery } from '../domain/deliveries.js';
import { coarseEvent } from '../domain/hook-events.js';
import type { HookScope, Webhook } from '../domain/webhooks.js';

export { timestamp } from '@anvil/proto';

export function scopeOf(scope: hooks.HookScope | null | undefined): HookScope {
  if (scope?.system) {
    const list = scope.admin_kind || 'system';
    if (list !== 'system' && list !== 'default' && list !== 'all') throw invalid(`invalid webhook type filter: ${list}`, 'invalid_admin_hook_kind');
    return { kind: 'site', list };
  }
  if (Number(scope?.repo_id) > 0) return { kind: 'repository', repoId: Number(scope!.repo_id) };
  if (Number(scope?.owner_id) > 0) return { kind: 'owner', ownerId: Number(scope!.owner_id) };
  throw invalid('a webhook scope is required', 'hook_scope_required');
}

/**
 * The hook as the API shows it, as Gitea's convert.ToHook does: never its secret (it only
 * signs deliveries), but its Authorization header, which the repository's admins set and
 * clients such as Terraform's Gitea provider read back to see whether it changed. Both stay
 * encrypted at rest (store/webhooks.ts).
 */
export function hookMessage(hook: Webhook): hooks.HookInput {
  return {
    id: hook.id, type: hook.type, name: hook.name, url: hook.url, content_type: hook.contentType, events: hook.events,
    branch_filter: hook.branchFilter, authorization_header: hook.authorizationHeader, active: hook.active, meta: hook.meta,
    created_at: timestamp(hook.createdAt), updated_at: timestamp(hook.updatedAt),
    repo_id: hook.repoId, owner_id: hook.ownerId, is_system_webhook: hook.isSystemWebhook,
  };
}

export function pageOf(page: { page?: number; limit?: number } | null | undefined): { offset: number; limit: number } {
  const limit = Math.max(1, Number(page?.limit) || 30);
  const number = Math.max(1, Number(page?.page) || 1);
  return { offset: (number - 1) * limit, limit };
}

export function deliveryMessage(d: Delivery, withBodies: boolean): hooks.DeliveryInput {
  return {
    id: d.id, uuid: d.uuid, hook_id: d.hookId, event: coarseEvent(d.event), event_type: d.event, status: d.status, attempts: d.attempts,
    request_url: d.requestUrl, request_headers: d.requestHeaders, request_body: withBodies ? d.payload : '',
    response_status: d.responseStatus, response_headers: d.responseHeaders, response_body: withBodies ? d.responseBody : '',
    error: d.error, duration_ms: d.durationMs, created_at: timestamp(d.createdAt),
    delivered_at: d.deliveredAt ? timestamp(d.deliveredAt) : undefined,
    next_attempt_at: d.status === 'pending' ? timestamp(d.nextAttemptAt) : undefined,
  };
}
