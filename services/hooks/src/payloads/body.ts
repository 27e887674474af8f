// The exact bytes a hook receives for an event: Gitea's payload as JSON (gitea, gogs), or
// form-encoded as `payload=<json>` for content type form; chat types get their own JSON
// (chat/), built from that payload as Gitea builds its chat messages.
import type { HookEvent } from '../domain/hook-events.js';
import type { Webhook } from '../domain/webhooks.js';
import { hasChatMessage } from './chat/convertor.js';
import { discordMessage } from './chat/discord.js';
import { msteamsMessage } from './chat/msteams.js';
import { slackMessage } from './chat/slack.js';

const CHAT_TYPES: ReadonlySet<Webhook['type']> = new Set(['slack', 'discord', 'msteams']);

/** Whether the hook is sent anything for the event: a chat hook only what its chat has a message for. */
export const hasDeliveryBody = (hook: Pick<Webhook, 'type'>, event: HookEvent): boolean =>
  !CHAT_TYPES.has(hook.type) || hasChatMessage(event);

/** The body of the event for the hook; only where hasDeliveryBody. */
export function deliveryBody(hook: Pick<Webhook, 'type' | 'contentType' | 'meta'>, event: HookEvent, payload: Record<string, unknown>): string {
  // Gitea indents every body it sends with two spaces.
  switch (hook.type) {
    case 'slack':
      return JSON.stringify(slackMessage(hook.meta, event, payload), null, 2);
    case 'discord':
      return JSON.stringify(discordMessage(event, payload), null, 2);
    case 'msteams':
      return JSON.stringify(msteamsMessage(event, payload), null, 2);
    default: {
      const json = JSON.stringify(payload, null, 2);
      return hook.contentType === 'form' ? new URLSearchParams({ payload: json }).toString() : json;
    }
  }
}

/** The Content-Type header for a hook's body. */
export const deliveryContentType = (hook: Pick<Webhook, 'type' | 'contentType'>) =>
  (hook.type === 'gitea' || hook.type === 'gogs') && hook.contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
