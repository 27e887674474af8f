// hooks.Hook → Gitea's Hook JSON (services/webhook/general.go ToHook): the config shows the
// target and content type (and slack's settings), never the secret.
import type { hooks } from '@anvil/proto';
import { formatTime } from './time.js';

export function presentHook(hook: hooks.Hook) {
  const config: Record<string, string> = { url: hook.url, content_type: hook.content_type };
  if (hook.type === 'slack') {
    for (const key of ['channel', 'username', 'icon_url', 'color']) config[key] = hook.meta?.[key] ?? '';
  }
  return {
    id: hook.id,
    type: hook.type,
    name: hook.name,
    branch_filter: hook.branch_filter,
    config,
    events: hook.events,
    authorization_header: hook.authorization_header,
    active: hook.active,
    updated_at: formatTime(hook.updated_at),
    created_at: formatTime(hook.created_at),
  };
}

/** hooks.Delivery → Anvil's HookDelivery JSON (contract/extensions.ts AnvilHookDelivery). */
export function presentDelivery(delivery: hooks.Delivery, withBodies: boolean) {
  const attempted = delivery.attempts > 0;
  return {
    id: delivery.id,
    uuid: delivery.uuid,
    event: delivery.event,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    request: {
      url: delivery.request_url, http_method: 'POST', headers: delivery.request_headers,
      ...(withBodies ? { body: delivery.request_body } : {}),
    },
    ...(attempted && delivery.response_status > 0 ? {
      response: {
        status: delivery.response_status, headers: delivery.response_headers,
        ...(withBodies ? { body: delivery.response_body } : {}),
      },
    } : {}),
    error: delivery.error,
    duration_ms: delivery.duration_ms,
    created_at: formatTime(delivery.created_at),
    ...(delivery.delivered_at ? { delivered_at: formatTime(delivery.delivered_at) } : {}),
    ...(delivery.next_attempt_at ? { next_attempt_at: formatTime(delivery.next_attempt_at) } : {}),
  };
}
