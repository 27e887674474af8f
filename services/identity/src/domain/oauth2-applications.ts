// OAuth2 applications of a user (Gitea's routers/api/v1/user/app.go and models/auth/oauth2.go):
// each belongs to the user who registered it; another user's application is not found.
// The client secret is generated on creation and on every update, and shown only then.
import { invalid, notFound, type Caller } from '@anvil/kit';
import { existingUser, pageOf, requireSelfOrAdmin } from './context.js';
import type { OAuth2Application, OAuth2Context } from './oauth2.js';
import { normalizeRedirectUris } from './oauth2-redirect-uris.js';
import { hashSecret, newClientId, newClientSecret } from './oauth2-secrets.js';
import type { Page, Paged } from './user.js';

/** An application as (re)generated: the only time its secret is shown. */
export interface OAuth2ApplicationWithSecret extends OAuth2Application {
  client_secret: string;
}

export interface OAuth2ApplicationInput {
  name: string;
  redirect_uris: string[];
  confidential_client: boolean;
  skip_secondary_authorization: boolean;
}

const applicationNotFound = (id: number) =>
  notFound(`OAuth2 application [id: ${id}] does not exist`, 'oauth2_application_not_found');

function checkedInput(input: OAuth2ApplicationInput): OAuth2ApplicationInput {
  if (input.name.trim() === '') throw invalid('[name]: Required', 'oauth2_application_name_required');
  return { ...input, redirect_uris: normalizeRedirectUris(input.redirect_uris) };
}

/** The application with this id if `userId` owns it. */
async function ownedApplication(ctx: OAuth2Context, userId: number, id: number): Promise<OAuth2Application> {
  const app = id > 0 ? await ctx.store.application(id) : undefined;
  if (!app || app.user_id !== userId) throw applicationNotFound(id);
  return app;
}

export async function createOAuth2Application(
  ctx: OAuth2Context, caller: Caller, userId: number, input: OAuth2ApplicationInput,
): Promise<OAuth2ApplicationWithSecret> {
  requireSelfOrAdmin(caller, userId);
  const fields = checkedInput(input);
  const user = await existingUser(ctx.identity, userId);
  const client_secret = newClientSecret();
  const app = await ctx.store.transaction((tx) => tx.insertApplication({
    ...fields, user_id: user.id, client_id: newClientId(), client_secret_hash: hashSecret(client_secret),
  }));
  return { ...app, client_secret };
}

export async function listOAuth2Applications(
  ctx: OAuth2Context, caller: Caller, userId: number, page: Partial<Page> | null | undefined,
): Promise<Paged<OAuth2Application>> {
  requireSelfOrAdmin(caller, userId);
  return ctx.store.applications(userId, pageOf(page, ctx.identity.settings));
}

export async function getOAuth2Application(ctx: OAuth2Context, caller: Caller, userId: number, id: number): Promise<OAuth2Application> {
  requireSelfOrAdmin(caller, userId);
  return ownedApplication(ctx, userId, id);
}

/** Replaces the settable fields and regenerates the secret (Gitea's PATCH does both). */
export async function updateOAuth2Application(
  ctx: OAuth2Context, caller: Caller, userId: number, id: number, input: OAuth2ApplicationInput,
): Promise<OAuth2ApplicationWithSecret> {
  requireSelfOrAdmin(caller, userId);
  const fields = checkedInput(input);
  await ownedApplication(ctx, userId, id);
  const client_secret = newClientSecret();
  const app = await ctx.store.transaction((tx) =>
    tx.updateApplication(id, { ...fields, client_secret_hash: hashSecret(client_secret) }));
  return { ...app, client_secret };
}

/**
 * Deletes the application and everything issued to it, and announces the revocation for
 * every user who had granted it, so gateways drop their cached tokens at once. Answers
 * those users.
 */
export async function deleteOAuth2Application(ctx: OAuth2Context, caller: Caller, userId: number, id: number): Promise<number[]> {
  requireSelfOrAdmin(caller, userId);
  await ownedApplication(ctx, userId, id);
  return ctx.store.transaction(async (tx) => {
    const app = await tx.application(id);
    if (!app || app.user_id !== userId) throw applicationNotFound(id);
    const revoked = await tx.deleteApplication(id);
    for (const user_id of revoked) await tx.publish({ kind: 'credential.revoked', user_id });
    return revoked;
  });
}
