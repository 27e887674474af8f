// Which remembered answer (answers.ts) a GET will get, known from its URL and credential
// before express sees it, so remembered-first.ts can send it without express's layers, the
// route table, the credential lookup, the repository lookup and the answer lookup's
// promises: under load those cost about as much again as sending the answer (the README's
// "Figures" say what skipping them bought).
//
// A shortcut is written by the route table (route.ts), or by git's HTTP handler for a
// fetch's ref advertisement (git-http/proxy.ts), right after it served an answer the whole
// way: sign-in, token scopes, the repository's resolution and the caller's permission
// there, the route's guards. It names what that decision rested on, and is
// only taken while each is still the very object in force in its own cache:
// - the credential's cached reply (the AuthState made of it): a token revoked, a password
//   changed or a user edited drops it there (credential-cache.ts), and its TTL ends it;
// - the repository's resolution for that caller: every access hint, every write through
//   this gateway to the repository and the TTL replace or drop it (repository-access.ts);
// - the answer under its key (which holds the repository's id, the caller's permission and
//   the URL): every answers hint, every write and the TTL drop it (answers.ts). An answer
//   made of the resolution alone (the repository's JSON, cached-operations.ts; the 404 of a
//   remembered "not found") is kept in the shortcut itself instead: it is as good as the
//   resolution, which is checked already.
// The route's guards are functions of the caller and that resolution alone, so while both
// are the same objects they decide as they did. Anything else goes to express, which
// decides afresh and writes a new shortcut: a shortcut never serves what the full path would
// not.
//
// A request with a Sudo header or `sudo` query (an admin acting as someone else) never gets
// one (the route table keeps none for it), nor any method but GET. The key is the URL as
// sent, the Git-Protocol header, and the credential cache's key for the Authorization
// header (a hash: no credential is kept in the clear); a token in the query is part of the
// URL.
import type { IncomingMessage } from 'node:http';
import type { DomainError } from '@anvil/kit';
import { rememberedAuth, type AuthState } from '../auth/authenticate.js';
import { credentialKey, type CredentialCache } from '../auth/credential-cache.js';
import { MalformedCredential, readAuthorization } from '../auth/credentials.js';
import type { Answer, AnswerCache } from './answers.js';
import type { RepositoryAccessCache, ResolvedRepository } from './repository-access.js';

export interface Shortcut {
  /** The credential cache's key of the credential the request presented; '' for none. */
  credentialKey: string;
  /** Who that credential signed in as, when the route table served the answer. */
  auth: AuthState;
  /** RepositoryAccessCache.keyOf the caller and the route's repository. */
  accessKey: string;
  /** The resolution the route's guards passed on. */
  resolution: ResolvedRepository | DomainError;
  /** AnswerCache.keyOf the answer served; or, for one made of the resolution alone, ... */
  answerKey?: string;
  /**
   * ... the answer itself (a repository's JSON; a remembered "not found"'s 404), as good as
   * the resolution it was made of.
   */
  answer?: Answer;
  /** Headers set before the route ran (the API's Access-Control-Expose-Headers). */
  headers: Record<string, string>;
  /** The route's template, as the request metrics label it. */
  route: string;
}

/** What find() gives: the answer to send, or the computation of it on its way. */
export type ShortcutFound = { shortcut: Shortcut; answer: Answer; pending?: undefined } | { shortcut: Shortcut; answer?: undefined; pending: Promise<Answer | undefined> };

export interface ShortcutCaches {
  credentials: CredentialCache;
  repositories: RepositoryAccessCache;
  answers: AnswerCache;
}

/** The bookkeeping of a shortcut beyond its key and any answer it holds. */
const SHORTCUT_OVERHEAD = 256;

export class AnswerShortcuts {
  private entries = new Map<string, Shortcut>();
  /** What the shortcuts take: their keys (a URL may be as long as a request line) and the answers they hold. */
  private bytes = 0;

  /** @param maxBytes what all shortcuts may take together; past it they are all forgotten (the next reads write them again). */
  constructor(private readonly caches: ShortcutCaches, private readonly maxBytes = 16 * 1024 * 1024) {}

  /**
   * Where a request's shortcut is kept, or undefined when it may not have one. `url` is the
   * URL as sent (inside express, req.originalUrl: its routers rewrite req.url).
   */
  static keyOf(req: IncomingMessage, url: string): string | undefined {
    // A `sudo` query is part of the URL, and the route table keeps no shortcut for it.
    if (req.method !== 'GET' || req.headers.sudo !== undefined) return undefined;
    // A fetch's ref advertisement differs by the protocol git asks for.
    const protocol = req.headers['git-protocol'];
    const where = protocol === undefined ? url : `${url}\0${String(protocol)}`;
    const header = req.headers.authorization;
    if (!header) return `\0${where}`;
    try {
      return `${credentialKey(readAuthorization(header))}\0${where}`;
    } catch (err) {
      if (err instanceof MalformedCredential) return undefined;
      throw err;
    }
  }

  /**
   * Keeps a shortcut for a request the route table just answered with a remembered answer;
   * only while everything it rests on is still in force (as find() would check).
   */
  remember(req: IncomingMessage, url: string, shortcut: Shortcut): void {
    const key = AnswerShortcuts.keyOf(req, url);
    if (key === undefined || !this.inForce(shortcut)) return;
    this.forget(key);
    const bytes = bytesOf(key, shortcut);
    if (this.bytes + bytes > this.maxBytes) {
      this.entries.clear();
      this.bytes = 0;
    }
    this.entries.set(key, shortcut);
    this.bytes += bytes;
  }

  /**
   * The shortcut for this request and its answer, when every object it rests on is still in
   * force; or, when only its answer is gone (a hint, a write, the TTL) and the answer cache
   * is computing it again, that computation (`pending`), which the route table would join
   * too: the reads that arrive right after a write wait for the one computation without
   * going through express each. Undefined otherwise: the route table answers, and writes
   * the shortcut again.
   */
  find(req: IncomingMessage): ShortcutFound | undefined {
    const key = req.url === undefined ? undefined : AnswerShortcuts.keyOf(req, req.url);
    const shortcut = key === undefined ? undefined : this.entries.get(key);
    if (!shortcut) return undefined;
    if (!this.groundsInForce(shortcut)) {
      this.forget(key!);
      return undefined;
    }
    const answer = this.answerOf(shortcut);
    if (answer) return { shortcut, answer };
    // Kept: the route table is computing its answer again, or is about to.
    const pending = this.caches.answers.pending(shortcut.answerKey!);
    return pending ? { shortcut, pending } : undefined;
  }

  /** How many shortcuts are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** What they take (tests). */
  get takenBytes(): number {
    return this.bytes;
  }

  private forget(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= bytesOf(key, old);
  }

  private inForce(shortcut: Shortcut): Answer | undefined {
    return this.groundsInForce(shortcut) ? this.answerOf(shortcut) : undefined;
  }

  /** The answer it holds, or the one remembered under its key while that is fresh. */
  private answerOf(shortcut: Shortcut): Answer | undefined {
    return shortcut.answer ?? this.caches.answers.peek(shortcut.answerKey!);
  }

  /** Whether the credential's reply and the repository's resolution it rested on are still the ones in force. */
  private groundsInForce(shortcut: Shortcut): boolean {
    const { credentials, repositories } = this.caches;
    if (rememberedAuth(credentials, shortcut.credentialKey) !== shortcut.auth) return false;
    // An answer it holds is the repository's JSON, which shows its figures; a remembered
    // answer is as fresh as the answer cache keeps it, whatever the figures.
    return repositories.peek(shortcut.accessKey, shortcut.answer !== undefined) === shortcut.resolution;
  }
}

function bytesOf(key: string, shortcut: Shortcut): number {
  return key.length + (shortcut.answer?.body.length ?? 0) + SHORTCUT_OVERHEAD;
}
