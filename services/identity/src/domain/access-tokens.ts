// Personal access tokens (Gitea's routers/api/v1/user/app.go and models/auth/access_token.go):
// a name unique per user, normalized scopes, the token shown once.
import { alreadyExists, DomainError, invalid, notFound, type Caller } from '@anvil/kit';
import { existingUser, pageOf, requireSelfOrAdmin, type Identity } from './context.js';
import { InvalidScopeError, normalizeScopes } from './scopes.js';
import { UniqueViolation } from './store.js';
import { newToken, parseGoInt } from './tokens.js';
import type { AccessToken, Page, Paged } from './user.js';

/** A token as created: the only time its value is shown. */
export interface CreatedAccessToken extends AccessToken {
  token: string;
}

const nameTaken = () => alreadyExists('access token name has been used already', 'token_name_taken');

export async function createAccessToken(
  identity: Identity, caller: Caller, userId: number, name: string, scopeNames: readonly string[],
): Promise<CreatedAccessToken> {
  requireSelfOrAdmin(caller, userId);
  if (name.trim() === '') throw invalid('[name]: Required', 'token_name_required');
  const user = await existingUser(identity, userId);
  // Gitea checks the name before the scopes.
  if ((await identity.store.accessTokensNamed(user.id, name)).length > 0) throw nameTaken();
  let scopes: string[];
  try {
    scopes = normalizeScopes(scopeNames);
  } catch (err) {
    if (err instanceof InvalidScopeError) throw invalid(`invalid access token scope provided: ${err.message}`, 'invalid_scope');
    throw err;
  }
  if (scopes.length === 0) throw invalid('access token must have a scope', 'invalid_scope');
  const value = newToken();
  try {
    const token = await identity.store.transaction((tx) =>
      tx.insertAccessToken({ user_id: user.id, name, token_hash: value.token_hash, token_last_eight: value.token_last_eight, scopes }));
    return { ...token, token: value.token };
  } catch (err) {
    if (err instanceof UniqueViolation && err.field === 'token_name') throw nameTaken();
    throw err;
  }
}

export async function listAccessTokens(
  identity: Identity, caller: Caller, userId: number, page: Partial<Page> | null | undefined,
): Promise<Paged<AccessToken>> {
  requireSelfOrAdmin(caller, userId);
  const user = await existingUser(identity, userId);
  return identity.store.accessTokens(user.id, pageOf(page, identity.settings));
}

const tokenNotFound = () => notFound('access token does not exist', 'token_not_found');

/**
 * Deletes a token named by id, or by name when the path is not a number (Go's ParseInt
 * with base 0, as Gitea reads it), and announces the revocation with the token's hash.
 */
export async function deleteAccessToken(identity: Identity, caller: Caller, userId: number, idOrName: string): Promise<void> {
  requireSelfOrAdmin(caller, userId);
  const user = await existingUser(identity, userId);
  let id = parseGoInt(idOrName) ?? 0n;
  if (id === 0n) {
    const named = await identity.store.accessTokensNamed(user.id, idOrName);
    if (named.length === 0) throw tokenNotFound();
    if (named.length > 1) throw new DomainError('invalid', `multiple matches for token name '${idOrName}'`, 'token_name_ambiguous');
    id = BigInt(named[0].id);
  }
  if (id <= 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) throw tokenNotFound();
  await identity.store.transaction(async (tx) => {
    const deleted = await tx.deleteAccessToken(Number(id), user.id);
    if (!deleted) throw tokenNotFound();
    await tx.publish({ kind: 'credential.revoked', user_id: user.id, token_hash: deleted.token_hash });
  });
}
