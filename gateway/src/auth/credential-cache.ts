// Verified credentials cached in the gateway (performance.md rule 2): a token is never
// resolved over gRPC on every request. Entries are keyed by the SHA-256 of the credential,
// live at most `ttlMs`, and one lookup per key is in flight at a time. Revocation stays
// immediate: the route that changes a token, password or user drops that user's entries
// before answering, and every replica drops them on identity's credential.revoked event;
// the TTL only bounds what both would miss.
import { createHash } from 'node:crypto';
import type { identity } from '@anvil/proto';
import type { Credential } from './credentials.js';

export type Authenticated = identity.AuthenticateReply;

interface Entry {
  value: Authenticated;
  expires: number;
}

export function credentialKey(credential: Credential): string {
  const material = credential.kind === 'token' ? `t:${credential.token}` : `b:${credential.username}\0${credential.password}`;
  return createHash('sha256').update(material).digest('hex');
}

export class CredentialCache {
  private entries = new Map<string, Entry>();
  private inFlight = new Map<string, Promise<Authenticated>>();
  /** Keys per user id, so a user's every credential can be dropped at once. */
  private keysByUser = new Map<number, Set<string>>();
  /** Bumped on every drop: a lookup that started before a drop must not repopulate. */
  private generation = 0;

  constructor(private readonly ttlMs = 10_000, private readonly maxEntries = 50_000) {}

  async get(key: string, load: () => Promise<Authenticated>): Promise<Authenticated> {
    const hit = this.peek(key);
    if (hit) return hit;
    let pending = this.inFlight.get(key);
    if (!pending) {
      const generation = this.generation;
      pending = load().then(
        (value) => {
          this.inFlight.delete(key);
          if (generation === this.generation) this.put(key, value);
          return value;
        },
        (err: unknown) => {
          this.inFlight.delete(key);
          throw err;
        },
      );
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The fresh reply remembered for this key, without loading one. */
  peek(key: string): Authenticated | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > Date.now() ? hit.value : undefined;
  }

  private put(key: string, value: Authenticated): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    const userId = value.user?.id ?? 0;
    let keys = this.keysByUser.get(userId);
    if (!keys) this.keysByUser.set(userId, (keys = new Set()));
    keys.add(key);
  }

  /** Drops every cached credential of a user (token deleted, password changed, user edited or deleted). */
  dropUser(userId: number): void {
    this.generation++;
    for (const key of this.keysByUser.get(userId) ?? []) this.entries.delete(key);
    this.keysByUser.delete(userId);
    this.inFlight.clear();
  }
}
