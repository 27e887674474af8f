// The request headers Gitea sends with a delivery (services/webhook/deliver.go
// addDefaultHeaders): the delivery id, the coarse event and the granular event type under
// Gitea's, Gogs' and GitHub's names, and HMAC signatures of the exact body bytes with the
// hook's secret (hex SHA-256 for Gitea and Gogs; `sha1=`/`sha256=` prefixed for GitHub's
// X-Hub-Signature(-256)). Without a secret the signature headers are sent empty, as Gitea does.
import { createHmac } from 'node:crypto';
import { coarseEvent, type HookEvent } from '../domain/hook-events.js';

const hmac = (algorithm: 'sha1' | 'sha256', secret: string, body: Buffer) =>
  (secret ? createHmac(algorithm, secret).update(body).digest('hex') : '');

export function deliveryHeaders(input: { uuid: string; event: HookEvent; secret: string; body: Buffer; contentType: string }): Record<string, string> {
  const { uuid, event } = input;
  const coarse = coarseEvent(event);
  const sha256 = hmac('sha256', input.secret, input.body);
  const sha1 = hmac('sha1', input.secret, input.body);
  return {
    'user-agent': 'GiteaServer',
    'content-type': input.contentType,
    'x-gitea-delivery': uuid,
    'x-gitea-event': coarse,
    'x-gitea-event-type': event,
    'x-gitea-signature': sha256,
    'x-gogs-delivery': uuid,
    'x-gogs-event': coarse,
    'x-gogs-event-type': event,
    'x-gogs-signature': sha256,
    'x-hub-signature': `sha1=${sha1}`,
    'x-hub-signature-256': `sha256=${sha256}`,
    'x-github-delivery': uuid,
    'x-github-event': coarse,
    'x-github-event-type': event,
  };
}
