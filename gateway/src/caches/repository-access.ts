// Resolved repositories remembered by the gateway: GET /repos/{owner}/{repo} answers from
// here without a gRPC call while the entry is fresh (the same bargain as the credential
// cache, performance.md rule 2; README "GET /repos" says what it bought).
//
// An entry is keyed by the caller's identity as the repository service sees it (user, admin,
// restricted, token scopes) and the repository's name, and never outlives the first of:
// - its TTL (≤ 10 s): the bound for anything the rules below miss;
// - any change that lands in the repository service's tables ResolveRepository reads:
//   PostgreSQL triggers raise a notification at commit, the repository service forwards
//   it as the repository-access hint naming the repository (or any, for owners and teams),
//   and every gateway drops what it remembers of it; a fork's entry shows its parent as
//   resolved, so a change to the parent alone reaches it by the TTL. A change to the
//   repository's figures alone (its size, updated_at and counts, which every push, contents
//   write, star or issue moves: the hint's `~<id>`, migration 20261129230000) drops it only
//   for a lookup that asks for the figures (`figures`, the default: a route that shows the
//   repository's JSON). The git reads' guards ask without them (GUARD_ONLY_OPERATIONS) and
//   go on passing on the entry, whose permission and settings are unchanged: a burst of
//   writes to a repository no longer sends each of its readers to the repository service.
//   When the JSON's lookup brings a resolution that differs from the entry's in its figures
//   alone, the guards keep the very object they had (`guard`), so what rests on it (the git
//   reads' answer shortcuts) stays in force;
// - a write this gateway handles that may change it: the entries it may change are dropped
//   when the write starts (so the write's own guards resolve afresh: a permission revoked
//   through another gateway a moment ago is not taken from here) and again when its response
//   is done, and a lookup that began before either drop fills nothing, so a client reads its
//   own write on the next request even before the hint arrives. A write whose service
//   resolves the repository and the caller's permission itself, in its write turn (a route's
//   `resolvedInTurn`, the contents API), keeps them at its start: its guards may answer from
//   here, since the service decides afresh anyway. Unless the repository was empty, it keeps
//   them at its end too: what it changes in a resolution (the repository's size and
//   updated_at; a first commit changes more) comes with the hint of the repository's row, a
//   few milliseconds later, as Gitea updates them after a push. Between the two drops the
//   entries are used and filled as usual: a read that overlaps a write may see the state
//   before it or after it, as it could without the cache, and nothing filled then outlives
//   the write's end (a kept resolution outlives it until the hint). (They used to be
//   bypassed for the whole write; under a steady stream of writes that sent every read of a
//   repository being written to the repository service.) A write under /repos/{owner}/{repo}
//   (or a push to it) can change only that repository's answers; any other write (an
//   organization's teams, a user, a site setting) may change any answer, so it drops them
//   all. A commit to one repository thus leaves every other repository's answers cached.
// "Not found" is remembered too: a stranger probing a private repository (or a name that
// does not exist) is answered 404 without a call. Such an entry names no repository id, so
// it goes with any change that may make a name resolve: a repository-access hint whose id
// is marked so (a repository created, deleted, renamed, moved, made public or private, a
// collaboration or team grant: migration 20261129090000 of the repository service), a
// hint for any repository, and a write through this gateway to that name or to anything
// (writeScopeOf counts a fork, a rename, a transfer or a generation from a template as a
// write to anything, since it makes a new name resolve). A repository's ordinary changes
// (its size and counts move with every push) leave them. Other failures are never remembered.
import { DomainError, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';

export type ResolvedRepository = repository.RepositoryAccess;

interface Entry {
  value?: ResolvedRepository;
  /** The not-found error to raise again, instead of a value. */
  missing?: DomainError;
  expires: number;
  /** When its lookup began (the clock below): its figures are stale once dropped after that. */
  loadedAt: number;
  /**
   * What a lookup without figures gets: an earlier resolution of this key that differs from
   * `value` in its figures alone (see the top of this file); undefined: `value`.
   */
  guard?: ResolvedRepository;
}

/** What a lookup gave: a repository, a "not found" worth remembering, or another failure. */
type Found = { value: ResolvedRepository } | { missing: DomainError } | { error: unknown };

/** A lookup on its way, and when it began (the clock below). */
interface Lookup {
  found: Promise<Found>;
  startedAt: number;
}

/** What a write can change: one repository (`owner\0name`, lower case) or, undefined, anything. */
export type WriteScope = string | undefined;

export class RepositoryAccessCache {
  private entries = new Map<string, Entry>();
  /** Lookups on their way, so concurrent reads of one key ask once. */
  private inFlight = new Map<string, Lookup>();
  /** Keys whose entry may be a remembered "not found". */
  private missingKeys = new Set<string>();
  /**
   * A logical clock: a lookup remembers when it began, a drop when it happened. A lookup is
   * kept (or shared with a request that joins it) only when nothing it may show was dropped
   * since it began; what it resolved says which drops count (its repository's id, its name,
   * "names may resolve" for a not found). So a hint for one repository does not spoil the
   * lookups of the others on their way, as clearing them all did: under a steady stream of
   * writes that sent a quarter of all reads to the repository service.
   */
  private clock = 0;
  private allDroppedAt = 0;
  private idDroppedAt = new Map<string, number>();
  private nameDroppedAt = new Map<string, number>();
  private missingDroppedAt = 0;
  /** When each repository's figures alone last changed (a `~<id>` hint). */
  private figuresDroppedAt = new Map<string, number>();

  constructor(private readonly ttlMs = 10_000, private readonly maxEntries = 50_000) {}

  static keyOf(caller: Caller, owner: string, name: string): string {
    return `${caller.userId}:${caller.isAdmin ? 1 : 0}${caller.restricted ? 1 : 0}:${caller.scopes.join(',')}\0${RepositoryAccessCache.repositoryOf(owner, name)}`;
  }

  static repositoryOf(owner: string, name: string): string {
    return `${owner.toLowerCase()}\0${name.toLowerCase()}`;
  }

  /**
   * The resolution for this key, remembered or looked up. `figures`: the caller shows the
   * repository's figures (its JSON); false for a guard that needs its permission and
   * settings only, which may then be given an entry whose figures changed since.
   */
  get(key: string, load: () => Promise<ResolvedRepository>, figures = true): Promise<ResolvedRepository> {
    return this.ttlMs <= 0 ? load() : this.remembered(key, load, figures, false);
  }

  /**
   * What is remembered for this key while fresh, without looking it up: the resolution, or
   * the not-found error a lookup would raise again. One object per lookup, so a caller that
   * kept one can tell whether it is still the one in force. `figures` as for get().
   */
  peek(key: string, figures = true): ResolvedRepository | DomainError | undefined {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.entries.get(key);
    if (!hit || hit.expires <= Date.now()) return undefined;
    if (!figures) return hit.missing ?? hit.guard ?? hit.value;
    if (hit.value && this.figuresDroppedSince(hit.loadedAt, hit.value)) return undefined;
    return hit.missing ?? hit.value;
  }

  private async remembered(key: string, load: () => Promise<ResolvedRepository>, figures: boolean, again: boolean): Promise<ResolvedRepository> {
    const hit = this.peek(key, figures);
    if (hit instanceof DomainError) throw hit;
    if (hit) return hit;
    const joined = this.inFlight.get(key);
    if (joined) {
      const found = await joined.found;
      // A change since it began may be one this request must see (its own write's guards):
      // ask afresh rather than share an answer from before it, once through the cache (the
      // requests that joined it share one new lookup), then on its own.
      if (!this.droppedSince(joined.startedAt, key, found, figures)) return this.asKept(key, unwrap(found), figures);
      if (!again) return this.remembered(key, load, figures, true);
    }
    return this.asKept(key, unwrap(await this.lookUp(key, load).found), figures);
  }

  /** A lookup's answer, as the guards get it once kept (the `guard` it may have kept instead). */
  private asKept(key: string, value: ResolvedRepository, figures: boolean): ResolvedRepository {
    const kept = figures ? undefined : this.entries.get(key);
    return kept?.value === value && kept.guard ? kept.guard : value;
  }

  private lookUp(key: string, load: () => Promise<ResolvedRepository>): Lookup {
    const startedAt = this.clock;
    const found = load().then(
      (value): Found => ({ value }),
      (err: unknown): Found => (err instanceof DomainError && err.kind === 'not_found' ? { missing: err } : { error: err }),
    );
    const lookup = { found, startedAt };
    this.inFlight.set(key, lookup);
    void found.then((result) => {
      if (this.inFlight.get(key) === lookup) this.inFlight.delete(key);
      // Kept even when its figures changed meanwhile: guards may use it, and peek() tells
      // a lookup that asks for the figures that they are older than the change.
      if (!('error' in result) && !this.droppedSince(startedAt, key, result, false)) this.put(key, result, startedAt);
    });
    return lookup;
  }

  private droppedSince(startedAt: number, key: string, found: Found, figures: boolean): boolean {
    if (this.allDroppedAt > startedAt || (this.nameDroppedAt.get(repositoryOfKey(key)) ?? 0) > startedAt) return true;
    if ('missing' in found) return this.missingDroppedAt > startedAt;
    if ('value' in found) {
      return (this.idDroppedAt.get(String(found.value.repository?.id)) ?? 0) > startedAt || (figures && this.figuresDroppedSince(startedAt, found.value));
    }
    return false;
  }

  private figuresDroppedSince(startedAt: number, value: ResolvedRepository): boolean {
    return (this.figuresDroppedAt.get(String(value.repository?.id)) ?? 0) > startedAt;
  }

  /** Forgets everything: a change landed somewhere (the repository service's hint). */
  dropAll(): void {
    this.allDroppedAt = ++this.clock;
    this.idDroppedAt.clear();
    this.nameDroppedAt.clear();
    this.figuresDroppedAt.clear();
    this.entries.clear();
    this.inFlight.clear();
    this.missingKeys.clear();
  }

  /**
   * Forgets the resolutions of the repositories with these ids (the access hint), for every
   * caller; a lookup on its way that resolves one of them is not kept. An id marked `~`
   * forgets only their figures.
   */
  dropRepositoryIds(ids: readonly string[]): void {
    const dropped = new Set<string>();
    const figuresOnly = new Set<string>();
    let namesMayResolve = false;
    for (const id of ids) {
      // `+<id>`: a change that may make a name resolve for someone told it does not;
      // `~<id>`: a change to the repository's figures alone.
      const mark = id[0] === '+' || id[0] === '~' ? id[0] : '';
      const plain = id.slice(mark.length);
      if (plain === '*' || plain === '') return this.dropAll();
      namesMayResolve ||= mark === '+';
      (mark === '~' ? figuresOnly : dropped).add(plain);
    }
    if (this.tooManyDrops()) return this.dropAll();
    for (const id of figuresOnly) if (!dropped.has(id)) this.figuresDroppedAt.set(id, ++this.clock);
    for (const id of dropped) this.idDroppedAt.set(id, ++this.clock);
    for (const [key, entry] of this.entries) if (entry.value && dropped.has(String(entry.value.repository?.id))) this.entries.delete(key);
    if (namesMayResolve) this.dropMissing();
  }

  private dropMissing(): void {
    this.missingDroppedAt = ++this.clock;
    for (const key of this.missingKeys) if (this.entries.get(key)?.missing) this.entries.delete(key);
    this.missingKeys.clear();
  }

  /** Forgets one repository's answers, for every caller. */
  private drop(repository: string): void {
    if (this.tooManyDrops()) return this.dropAll();
    this.nameDroppedAt.set(repository, ++this.clock);
    for (const map of [this.entries, this.inFlight]) {
      for (const key of map.keys()) if (repositoryOfKey(key) === repository) map.delete(key);
    }
  }

  /** The record of drops per repository lasts until the next dropAll, which it forces when large. */
  private tooManyDrops(): boolean {
    return this.idDroppedAt.size + this.nameDroppedAt.size + this.figuresDroppedAt.size >= 100_000;
  }

  /**
   * A write request started in this gateway: forget what it may change, unless its service
   * resolves the caller's permission afresh in its write turn (`resolvedInTurn`).
   */
  writeStarted(scope: WriteScope, resolvedInTurn = false): void {
    if (!resolvedInTurn) this.dropScope(scope);
  }

  /**
   * Its response is done: forget again what it may have changed meanwhile, unless the write
   * changed nothing a resolution shows but what its hint brings (`resolutionKept`).
   */
  writeEnded(scope: WriteScope, resolutionKept = false): void {
    if (!resolutionKept) this.dropScope(scope);
  }

  private dropScope(scope: WriteScope): void {
    if (scope === undefined) this.dropAll();
    else this.drop(scope);
  }

  private put(key: string, found: { value: ResolvedRepository } | { missing: DomainError }, loadedAt: number): void {
    if (this.entries.size >= this.maxEntries) {
      this.entries.clear();
      this.missingKeys.clear();
    }
    const previous = this.entries.get(key);
    const guard = previous?.value && 'value' in found && sameBesidesFigures(previous.value, found.value) ? previous.guard ?? previous.value : undefined;
    this.entries.set(key, { ...found, expires: Date.now() + this.ttlMs, loadedAt, guard });
    if ('missing' in found) this.missingKeys.add(key);
  }
}

/**
 * A repository's figures as its message names them: the columns the repository service's
 * trigger leaves out when it marks a change `~<id>` (migration 20261129230000; a test holds
 * the two lists equal). No guard reads them.
 */
export const FIGURES: ReadonlySet<string> = new Set(['size', 'updated_at', 'branch_count', 'language', 'licenses', 'num_watches',
  'num_open_issues', 'num_open_pulls', 'issue_counts_version', 'num_stars', 'num_forks', 'mirror_updated_at']);

function withoutFigures(repo: object | null | undefined): object | null | undefined {
  return repo && Object.fromEntries(Object.entries(repo).filter(([name]) => !FIGURES.has(name)));
}

/** Whether two resolutions differ in the figures of the repository (or of its parent) alone. */
function sameBesidesFigures(a: ResolvedRepository, b: ResolvedRepository): boolean {
  const comparable = (r: ResolvedRepository) => JSON.stringify({
    ...r, repository: withoutFigures(r.repository), parent: r.parent && { ...r.parent, repository: withoutFigures(r.parent.repository) },
  });
  return comparable(a) === comparable(b);
}

function unwrap(found: Found): ResolvedRepository {
  if ('value' in found) return found.value;
  throw 'missing' in found ? found.missing : found.error;
}

function repositoryOfKey(key: string): string {
  return key.slice(key.indexOf('\0') + 1);
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request may change state: everything but reads and a git fetch's negotiation. */
export function isWrite(method: string, path: string): boolean {
  return !READS.has(method) && !path.endsWith('/git-upload-pack');
}

const API_REPOSITORY = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)(?:\/|$)/;
/** Writes under a repository's path that make another name resolve: they may change anything. */
const NEW_NAME = /^\/api\/v1\/repos\/[^/]+\/[^/]+(?:\/(?:forks|generate|transfer(?:\/(?:accept|reject))?)\/?)?$/;
const GIT_REPOSITORY = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/git-receive-pack$/;

/**
 * Which answers a write may change: the repository its path names (the API's
 * /repos/{owner}/{repo}/..., a push), or anything. A name that does not decode is anything.
 */
export function writeScopeOf(path: string): WriteScope {
  if (NEW_NAME.test(path)) return undefined;
  const match = API_REPOSITORY.exec(path) ?? GIT_REPOSITORY.exec(path);
  if (!match) return undefined;
  try {
    return RepositoryAccessCache.repositoryOf(decodeURIComponent(match[1]!), decodeURIComponent(match[2]!));
  } catch {
    return undefined;
  }
}

/** A cache that must hear of this gateway's writes (RepositoryAccessCache, AnswerCache). */
export interface WriteTracker {
  /** `resolvedInTurn`: the write's service resolves the caller's permission itself, in its write turn. */
  writeStarted(scope: WriteScope, resolvedInTurn?: boolean): void;
  /** `resolutionKept`: the write's route said its resolution needs no drop (see the top of this file). */
  writeEnded(scope: WriteScope, resolutionKept?: boolean): void;
}

/**
 * Express middleware: tells the caches about every write this gateway handles, from the
 * moment it arrives until its response is done ('close' also fires when the client leaves).
 * `res.locals.resolvedInTurn` says the write's route is `resolvedInTurn` (markResolvedInTurn),
 * `res.locals.resolutionKept` that its route found the repository not empty (route.ts).
 */
export function trackWrites(...caches: WriteTracker[]) {
  return (req: { method: string; path: string }, res: { locals?: Record<string, unknown>; once(event: 'close', listener: () => void): unknown }, next: () => void): void => {
    if (isWrite(req.method, req.path)) {
      const scope = writeScopeOf(req.path);
      const resolvedInTurn = res.locals?.resolvedInTurn === true;
      for (const cache of caches) cache.writeStarted(scope, resolvedInTurn);
      res.once('close', () => {
        const resolutionKept = res.locals?.resolutionKept === true;
        for (const cache of caches) cache.writeEnded(scope, resolutionKept);
      });
    }
    next();
  };
}
