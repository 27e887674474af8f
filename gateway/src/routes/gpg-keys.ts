// GPG keys: /user/gpg_keys, /users/{username}/gpg_keys and the token verification flow
// (routers/api/v1/user/gpg_key.go). Keys are read by anyone who may see the user and
// changed by their owner; another user's key is not found.
import express, { type Request, type Response } from 'express';
import { created, noContent, ok, plainText, type Route, type RouteContext } from '../http/route.js';
import { ApiError } from '../http/errors.js';
import { presentGpgKey } from '@anvil/presenters/gpg-key.js';
import { isUserVisibleTo } from '@anvil/presenters/user.js';

/** The id in the path; anything but a positive integer names no key. */
function keyIdOf(ctx: RouteContext): number {
  const id = Number(ctx.params.id);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

// The contract declares no body for userVerifyGPGKey (Gitea binds VerifyGPGKeyOption by
// hand), so the route table does not parse one: read it here.
const parseJson = express.json({ limit: '1mb', type: () => true, strict: false });
function jsonBody(req: Request, res: Response): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    parseJson(req, res, (err?: unknown) => {
      if (err) return reject(new ApiError(422, 'invalid JSON body'));
      const body = req.body as unknown;
      resolve(body && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : {});
    });
  });
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export const gpgKeyRoutes: Route[] = [
  {
    method: 'GET', path: '/user/gpg_keys', operationId: 'userCurrentListGPGKeys', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.gpgKeys.ListGpgKeys({ user_id: ctx.caller.userId, page: { page, limit } }, { caller: ctx.caller });
      return ok(result.keys.map(presentGpgKey), result.total);
    },
  },
  {
    method: 'POST', path: '/user/gpg_keys', operationId: 'userCurrentPostGPGKey', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const body = ctx.body as { armored_public_key?: string; armored_signature?: string };
      const key = await ctx.deps.services.gpgKeys.AddGpgKey({
        user_id: ctx.caller.userId,
        armored_public_key: text(body.armored_public_key),
        armored_signature: text(body.armored_signature),
      }, { caller: ctx.caller });
      return created(presentGpgKey(key));
    },
  },
  {
    method: 'GET', path: '/user/gpg_keys/:id', operationId: 'userCurrentGetGPGKey', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const key = await ctx.deps.services.gpgKeys.GetGpgKey({ user_id: ctx.caller.userId, id: keyIdOf(ctx) }, { caller: ctx.caller });
      return ok(presentGpgKey(key));
    },
  },
  {
    method: 'DELETE', path: '/user/gpg_keys/:id', operationId: 'userCurrentDeleteGPGKey', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      await ctx.deps.services.gpgKeys.DeleteGpgKey({ user_id: ctx.caller.userId, id: keyIdOf(ctx) }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/users/:username/gpg_keys', operationId: 'userListGPGKeys', access: 'public', scopes: ['user'],
    async handle(ctx) {
      // One call: the keys come with their owner, whose visibility decides (404 if hidden).
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.gpgKeys.ListGpgKeys({ login: ctx.params.username, page: { page, limit } }, { caller: ctx.caller });
      if (!result.owner || !isUserVisibleTo(result.owner, ctx.caller)) throw new ApiError(404, 'The target couldn\'t be found.');
      return ok(result.keys.map(presentGpgKey), result.total);
    },
  },
  {
    method: 'GET', path: '/user/gpg_key_token', operationId: 'getVerificationToken', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const { token } = await ctx.deps.services.gpgKeys.GetGpgKeyToken({ user_id: ctx.caller.userId }, { caller: ctx.caller });
      return plainText(token);
    },
  },
  {
    method: 'POST', path: '/user/gpg_key_verify', operationId: 'userVerifyGPGKey', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const body = await jsonBody(ctx.req, ctx.res);
      const key = await ctx.deps.services.gpgKeys.VerifyGpgKey({
        user_id: ctx.caller.userId,
        key_id: text(body.key_id),
        armored_signature: text(body.armored_signature),
      }, { caller: ctx.caller });
      // Gitea's handler answers 200 though its document declares 201 (contract/code-statuses.ts).
      return ok(presentGpgKey(key));
    },
  },
];
