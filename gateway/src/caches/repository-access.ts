// Resolved repositories remembered by the gateway: GET /repos/{owner}/{repo} answers from
// here without a gRPC call while the entry is fresh (the same bargain as the credential
// cache, performance.md rule 2; README "GET /repos" says what it bought).
//
// An entry is keyed by the caller's identity as the repository service sees it (user, admin,
// restricted, token scopes) and the repository's name, and never outlives the first of:
// - its TTL (≤ 10 s): the bound for anything the rules below miss;
// - any change that lands in the repository service's tables ResolveRepository reads:
//   PostgreSQL triggers raise a notification at commit, the repository service forwards
//   it as the repository-access hint, and every gateway drops everything it remembers;
// - any write this gateway handles: while one is in flight the cache is bypassed (neither
//   read nor filled) and it is emptied when the write starts and when it ends, so a client
//   reads its own write on the next request even before the hint arrives.
// Only answers are remembered, never failures (a 404 costs the call it always did).
import type { Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';

export type ResolvedRepository = repository.RepositoryAccess;

interface Entry {
  value: ResolvedRepository;
  expires: number;
}

export class RepositoryAccessCache {
  private entries = new Map<string, Entry>();
  private inFlight = new Map<string, Promise<ResolvedRepository>>();
  /** Bumped on every drop: a lookup that started before a drop must not fill the cache. */
  private generation = 0;
  private writes = 0;

  constructor(private readonly ttlMs = 10_000, private readonly maxEntries = 50_000) {}

  static keyOf(caller: Caller, owner: string, name: string): string {
    return `${caller.userId}:${caller.isAdmin ? 1 : 0}${caller.restricted ? 1 : 0}:${caller.scopes.join(',')}\0${owner.toLowerCase()}\0${name.toLowerCase()}`;
  }

  async get(key: string, load: () => Promise<ResolvedRepository>): Promise<ResolvedRepository> {
    if (this.writes > 0 || this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value;
    let pending = this.inFlight.get(key);
    if (!pending) {
      const generation = this.generation;
      const loading: Promise<ResolvedRepository> = load().then(
        (value) => {
          if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
          if (generation === this.generation && this.writes === 0) this.put(key, value);
          return value;
        },
        (err: unknown) => {
          if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
          throw err;
        },
      );
      this.inFlight.set(key, (pending = loading));
    }
    return pending;
  }

  /** Forgets everything: a change landed somewhere (the repository service's hint). */
  dropAll(): void {
    this.generation++;
    this.entries.clear();
    this.inFlight.clear();
  }

  /** A write request started in this gateway: bypass the cache until writeEnded(). */
  writeStarted(): void {
    this.writes++;
    this.dropAll();
  }

  writeEnded(): void {
    this.writes = Math.max(0, this.writes - 1);
    this.dropAll();
  }

  private put(key: string, value: ResolvedRepository): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request may change state: everything but reads and a git fetch's negotiation. */
export function isWrite(method: string, path: string): boolean {
  return !READS.has(method) && !path.endsWith('/git-upload-pack');
}

/**
 * Express middleware: tells the cache about every write this gateway handles, from the
 * moment it arrives until its response is done ('close' also fires when the client leaves).
 */
export function trackWrites(cache: RepositoryAccessCache) {
  return (req: { method: string; path: string }, res: { once(event: 'close', listener: () => void): unknown }, next: () => void): void => {
    if (isWrite(req.method, req.path)) {
      cache.writeStarted();
      res.once('close', () => cache.writeEnded());
    }
    next();
  };
}
