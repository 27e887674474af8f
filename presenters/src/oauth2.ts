// OAuth2 applications as Gitea's JSON (services/convert: ToOAuth2Application). The secret is
// in the message only when it was just generated; list and get carry it empty.
import type { identity } from '@anvil/proto';
import { formatTime } from './time.js';

export function presentOAuth2Application(app: identity.OAuth2Application) {
  return {
    id: app.id,
    name: app.name,
    client_id: app.client_id,
    client_secret: app.client_secret,
    confidential_client: app.confidential_client,
    skip_secondary_authorization: app.skip_secondary_authorization,
    redirect_uris: app.redirect_uris,
    created: formatTime(app.created_at),
  };
}
