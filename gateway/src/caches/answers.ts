// Complete API answers remembered by the gateway (status, headers, body bytes), for the hot
// repository reads of cached-operations.ts: a page of issues or pulls, a file's contents, a
// branch list. A hit costs no gRPC call, no SQL, no git and no JSON encoding; the README's
// "Figures" say what that bought.
//
// Only route.ts fills and reads it, AFTER the route's guards (sign-in, token scopes, the
// repository's resolution and the caller's permission there): an answer is only ever served
// to a caller who was just let through to compute it himself. The key holds everything the
// answer depends on: the operation, the repository's id and the caller's permission there,
// the caller (user, admin, restricted, token scopes: some JSON says what the caller may do,
// e.g. a pull's base repository `permissions`), and the request's exact path and query (the
// Link header repeats them).
//
// An answer never outlives the first of:
// - its TTL (ANVIL_ANSWER_CACHE_TTL_MS, 10 s by default): the bound for anything the rules
//   below miss (e.g. a commit author's account, which lives in identity);
// - a committed change to a row the repository's answers show: the row triggers of the
//   repository and collaboration databases name the repository (or `*`), the services
//   forward that as the repository-answers hint, and every gateway drops its answers;
// - a write this gateway handles under the repository's path (or any write elsewhere, which
//   may change anything): dropped when its response is done, so a client reads its own
//   write at once. A read that overlaps the write may be answered from before it or from
//   what was filled meanwhile, as it could be without the cache; the drop removes both, and
//   a fill that began before it is not kept. (Unlike a resolution, repository-access.ts, an
//   answer is not dropped when the write starts too: the write itself reads no answer.)
// A fill that started before a drop is not stored (the clock below), and a request never
// joins a fill that started before a drop, so no answer older than a change is ever served
// after the change was announced.
import type { Caller } from '@anvil/kit';
import { RepositoryAccessCache, type WriteScope } from './repository-access.js';

/** What is sent: status, the headers the route set (Link, X-Total-Count, content-type) and the body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Entry {
  answer: Answer;
  /** The tags that drop it: the repository's id and its `owner\0name` as written in paths. */
  tags: readonly [string, string];
  expires: number;
  bytes: number;
}

interface Fill {
  done: Promise<Answer | undefined>;
  tags: readonly [string, string];
}

/** Where an answer belongs, for its key and for what drops it. */
export interface AnswerSubject {
  operationId: string;
  repositoryId: string;
  owner: string;
  name: string;
  /** The caller's permission on the repository, as resolved for this request. */
  permission: string;
  caller: Caller;
  /** The request's path and query as sent (req.originalUrl). */
  url: string;
}

/** The bookkeeping cost of an entry beyond its body, so many small answers still count. */
const ENTRY_OVERHEAD = 512;

export class AnswerCache {
  /** In least recently used order (a hit moves its entry to the end). */
  private entries = new Map<string, Entry>();
  private byTag = new Map<string, Set<string>>();
  private bytes = 0;
  private fills = new Map<string, Fill>();
  /** A logical clock: a fill remembers when it started, a drop when it happened. */
  private clock = 0;
  private allDroppedAt = 0;
  private droppedAt = new Map<string, number>();

  /**
   * @param ttlMs how long an answer may be served; 0 turns the cache off.
   * @param maxBytes what all answers may take together (least recently used go first).
   * @param maxAnswerBytes larger answers (a big file's contents) are not kept.
   */
  constructor(readonly ttlMs = 10_000, private readonly maxBytes = 64 * 1024 * 1024, private readonly maxAnswerBytes = 1024 * 1024) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  static keyOf(s: AnswerSubject): string {
    const c = s.caller;
    return `${s.operationId}\0${s.repositoryId}\0${s.permission}\0${c.userId}:${c.isAdmin ? 1 : 0}${c.restricted ? 1 : 0}:${c.scopes.join(',')}\0${s.url}`;
  }

  static tagsOf(s: Pick<AnswerSubject, 'repositoryId' | 'owner' | 'name'>): readonly [string, string] {
    return [`id:${s.repositoryId}`, `name:${RepositoryAccessCache.repositoryOf(s.owner, s.name)}`];
  }

  /**
   * The remembered answer, or `compute`'s when none is fresh (undefined: the reply is not
   * one to keep, e.g. an error or a streamed body, and the caller sends it itself).
   * Concurrent misses of one key share one computation.
   */
  async get(subject: AnswerSubject, compute: () => Promise<Answer | undefined>): Promise<Answer | undefined> {
    const tags = AnswerCache.tagsOf(subject);
    if (!this.enabled) return compute();
    const key = AnswerCache.keyOf(subject);
    const hit = this.peek(key);
    if (hit) return hit;
    const joined = this.fills.get(key);
    if (joined) {
      // The one computing failed or gave nothing to keep: this request computes its own.
      return (await joined.done.catch(() => undefined)) ?? compute();
    }
    const startedAt = this.clock;
    const done = compute();
    const fill: Fill = { done, tags };
    this.fills.set(key, fill);
    try {
      const answer = await done;
      if (answer && this.fills.get(key) === fill && !this.droppedSince(startedAt, tags)) this.put(key, tags, answer);
      return answer;
    } finally {
      if (this.fills.get(key) === fill) this.fills.delete(key);
    }
  }

  /**
   * The answer a computation on its way will give under this key (AnswerCache.keyOf), when
   * one is: it began after every drop that concerns it, so get() would join it too.
   * Undefined when none is on its way; the promise gives undefined when it gave nothing to
   * keep (an error, a streamed body) or failed.
   */
  pending(key: string): Promise<Answer | undefined> | undefined {
    return this.fills.get(key)?.done.catch(() => undefined);
  }

  /** The fresh answer remembered under this key (AnswerCache.keyOf), without computing one. */
  peek(key: string): Answer | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= Date.now()) {
      this.remove(key, hit);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.answer;
  }

  /** Forgets the answers of these repositories (their ids; `*`: every repository). */
  dropRepositories(ids: readonly string[]): void {
    for (const id of ids) {
      if (id === '*') return this.dropAll();
    }
    for (const id of ids) this.dropTag(`id:${id}`);
  }

  /** Forgets everything (a change anywhere, or a hint may have been missed). */
  dropAll(): void {
    this.allDroppedAt = ++this.clock;
    this.droppedAt.clear();
    this.entries.clear();
    this.byTag.clear();
    this.fills.clear();
    this.bytes = 0;
  }

  /** A write request started in this gateway: nothing to forget yet (see the top of this file). */
  writeStarted(_scope: WriteScope): void {}

  /** Its response is done: forget what it may have changed. */
  writeEnded(scope: WriteScope): void {
    this.dropScope(scope);
  }

  /** How many answers are kept and what they take (for tests and the bench). */
  stats(): { answers: number; bytes: number } {
    return { answers: this.entries.size, bytes: this.bytes };
  }

  private dropScope(scope: WriteScope): void {
    if (scope === undefined) this.dropAll();
    else this.dropTag(`name:${scope}`);
  }

  private dropTag(tag: string): void {
    // A drop per repository is remembered until the next dropAll; so many of them that the
    // record itself grows large are folded into one dropAll.
    if (this.droppedAt.size >= 100_000) return this.dropAll();
    this.droppedAt.set(tag, ++this.clock);
    for (const key of this.byTag.get(tag) ?? []) {
      const entry = this.entries.get(key);
      if (entry) this.remove(key, entry);
    }
    this.byTag.delete(tag);
    for (const [key, fill] of this.fills) {
      if (fill.tags.includes(tag)) this.fills.delete(key);
    }
  }

  private droppedSince(startedAt: number, tags: readonly string[]): boolean {
    return this.allDroppedAt > startedAt || tags.some((tag) => (this.droppedAt.get(tag) ?? 0) > startedAt);
  }

  private put(key: string, tags: readonly [string, string], answer: Answer): void {
    // The key counts too: it holds the URL, which a client may make as long as a request line.
    const bytes = answer.body.length + key.length + ENTRY_OVERHEAD;
    if (answer.body.length > this.maxAnswerBytes || bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    this.entries.set(key, { answer, tags, expires: Date.now() + this.ttlMs, bytes });
    this.bytes += bytes;
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
