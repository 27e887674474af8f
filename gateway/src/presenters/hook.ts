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
    updated_at: formatTime(hook.updated),
    created_at: formatTime(hook.created),
  };
}
