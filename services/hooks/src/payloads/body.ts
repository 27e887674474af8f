// The exact bytes a hook receives for an event: Gitea's payload as JSON (gitea, gogs), or
// form-encoded as `payload=<json>` for content type form; chat types get their own JSON.
import type { HookEvent } from '../domain/hook-events.js';
import type { Webhook } from '../domain/webhooks.js';
import { discordBody, msteamsBody, slackBody, summarize } from './chat.js';

export function deliveryBody(hook: Pick<Webhook, 'type' | 'contentType' | 'meta'>, event: HookEvent, payload: Record<string, unknown>): string {
  switch (hook.type) {
    case 'slack':
      return JSON.stringify(slackBody(summarize(event, payload), hook.meta));
    case 'discord':
      return JSON.stringify(discordBody(summarize(event, payload)));
    case 'msteams':
      return JSON.stringify(msteamsBody(summarize(event, payload)));
    default: {
      // Gitea indents payloads with two spaces.
      const json = JSON.stringify(payload, null, 2);
      return hook.contentType === 'form' ? new URLSearchParams({ payload: json }).toString() : json;
    }
  }
}

/** The Content-Type header for a hook's body. */
export const deliveryContentType = (hook: Pick<Webhook, 'type' | 'contentType'>) =>
  (hook.type === 'gitea' || hook.type === 'gogs') && hook.contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
