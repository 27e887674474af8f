// anvil.identity.v1.OAuth2Service: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import type { OAuth2Application, OAuth2Context } from '../domain/oauth2.js';
import {
  createOAuth2Application, deleteOAuth2Application, getOAuth2Application, listOAuth2Applications,
  updateOAuth2Application, type OAuth2ApplicationInput,
} from '../domain/oauth2-applications.js';
import { authorize, exchangeToken } from '../domain/oauth2-flow.js';
import { timestamp, userMessage } from './messages.js';

export const OAUTH2_SERVICE_NAME = 'anvil.identity.v1.OAuth2Service';

type DeclaredMethods<H> = { [K in keyof H as string extends K ? never : K]: H[K] };
export type OAuth2ServiceImplementation = ServiceImplementation<DeclaredMethods<identity.OAuth2ServiceHandlers>>;

/** The secret is only in replies that generated it. */
function applicationMessage(app: OAuth2Application & { client_secret?: string }): identity.OAuth2ApplicationInput {
  return {
    id: app.id,
    user_id: app.user_id,
    name: app.name,
    client_id: app.client_id,
    client_secret: app.client_secret ?? '',
    redirect_uris: app.redirect_uris,
    confidential_client: app.confidential_client,
    skip_secondary_authorization: app.skip_secondary_authorization,
    created_at: timestamp(app.created_at),
    updated_at: timestamp(app.updated_at),
  };
}

function applicationInput(request: identity.CreateOAuth2ApplicationRequest | identity.UpdateOAuth2ApplicationRequest): OAuth2ApplicationInput {
  return {
    name: request.name,
    redirect_uris: request.redirect_uris,
    confidential_client: request.confidential_client,
    skip_secondary_authorization: request.skip_secondary_authorization,
  };
}

export function oauth2Service(ctx: OAuth2Context): OAuth2ServiceImplementation {
  return {
    async CreateOAuth2Application(request, { caller }) {
      return applicationMessage(await createOAuth2Application(ctx, caller, Number(request.user_id), applicationInput(request)));
    },

    async ListOAuth2Applications(request, { caller }) {
      const page = await listOAuth2Applications(ctx, caller, Number(request.user_id), request.page);
      return { applications: page.items.map(applicationMessage), total: page.total };
    },

    async GetOAuth2Application(request, { caller }) {
      return applicationMessage(await getOAuth2Application(ctx, caller, Number(request.user_id), Number(request.id)));
    },

    async UpdateOAuth2Application(request, { caller }) {
      return applicationMessage(await updateOAuth2Application(ctx, caller, Number(request.user_id), Number(request.id), applicationInput(request)));
    },

    async DeleteOAuth2Application(request, { caller }) {
      return { revoked_user_ids: await deleteOAuth2Application(ctx, caller, Number(request.user_id), Number(request.id)) };
    },

    async Authorize(request, { caller }) {
      return authorize(ctx, caller, request);
    },

    async ExchangeToken(request) {
      const issued = await exchangeToken(ctx, request);
      return { ...issued, user: userMessage(issued.user) };
    },
  };
}

export function oauth2GrpcService(ctx: OAuth2Context) {
  return {
    name: OAUTH2_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.identity.v1.OAuth2Service.service,
    implementation: oauth2Service(ctx),
  };
}
