// Refs read from the database instead of git: branch heads, tags and every resolution of a
// caller's revision come from the git_ref rows (domain/git-refs.ts), one SQL statement, and
// objects from the cat-file cache. The rows are rewritten from `git for-each-ref` at the
// end of every write turn (domain/write-lock.ts calls sync()), so a read after a push or
// an API write sees it; a turn that moved one branch to a commit the service wrote itself
// (a contents write) writes just that row (noteMove). A repository whose rows were never
// written is read from git as before, and written in a turn of its own (backfill) so the next read finds it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { relative, sep } from 'node:path';
import type { BranchHead } from './branches.js';
import { listBranchHeads } from './branches.js';
import { isObjectId, isSafeRef, isZeroId } from './command.js';
import type { ResolvedRevision } from './contents-git.js';
import { resolveRevision as resolveRevisionByGit } from './contents-git.js';
import { lookupThroughCache } from './objects-git.js';
import { readRefRows } from './ref-snapshot.js';
import { resolveCommit as resolveCommitByGit } from './refs.js';
import type { RepositoryStorage } from './storage.js';
import { findTag as findTagByGit, listTags as listTagsByGit } from './tags.js';
import { onlyNames, type GitRefRow, type GitRefRows, type OnlyRefs, type ReadExtras, type RefSnapshot } from '../domain/git-refs.js';
import type { BranchProtection } from '../domain/branch-protection.js';
import type { ObjectInfo } from '../domain/git-objects.js';
import type { GitTag } from '../domain/tags.js';
import { inWriteTurn } from '../domain/write-lock.js';

export interface RefIndexOptions {
  /** Runs `work` in the repository's write turn, whose end rewrites its rows (sync()). */
  inTurn(owner: string, name: string, work: () => Promise<void>): Promise<void>;
  onError?(err: unknown, repository: string): void;
}

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

export function branchHeadOf(row: GitRefRow): BranchHead {
  return {
    name: row.name.slice(HEADS.length), sha: row.objectId, message: row.message,
    authorName: row.authorName, authorEmail: row.authorEmail, authorTime: row.authorTime,
    committerName: row.committerName, committerEmail: row.committerEmail, committerTime: row.committerTime,
  };
}

export function tagOf(row: GitRefRow): GitTag {
  const annotated = row.objectType === 'tag';
  return {
    name: row.name.slice(TAGS.length), id: row.objectId, annotated,
    commitSha: row.commitId ?? row.objectId,
    message: annotated ? row.tagMessage : row.message,
    created: row.creatorTime,
    tagger: annotated ? { name: row.taggerName, email: row.taggerEmail, when: row.taggerTime } : undefined,
  };
}

/** Newest first by creator date, then by name (as `for-each-ref --sort=-creatordate`). */
const byCreatorDate = (a: GitRefRow, b: GitRefRow) => b.creatorTime - a.creatorTime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** `git rev-parse`'s order for a short name: refs/<x>, refs/tags/<x>, refs/heads/<x>. */
function dwim(snapshot: RefSnapshot, revision: string): GitRefRow | undefined | 'ask-git' {
  const byName = (name: string) => snapshot.refs.find((r) => r.name === name);
  if (revision === 'HEAD') return byName(`${HEADS}${snapshot.defaultBranch}`);
  if (revision.startsWith('refs/') && !revision.startsWith(HEADS) && !revision.startsWith(TAGS)) return 'ask-git';
  for (const candidate of [revision, `refs/${revision}`, `${TAGS}${revision}`, `${HEADS}${revision}`]) {
    if (!candidate.startsWith('refs/')) continue;
    const found = byName(candidate);
    if (found) return found;
  }
  // A short object id: git knows which object it abbreviates.
  return /^[0-9a-f]{4,63}$/.test(revision) ? 'ask-git' : undefined;
}

/** A snapshot one read call took: of every ref or only some, with or without extras. */
interface TakenSnapshot {
  only?: OnlyRefs;
  extras?: ReadExtras;
  reading: Promise<RefSnapshot | undefined>;
}

/** The snapshots one read call took, by git directory: a call reads its repository's rows once. */
type CallSnapshots = Map<string, TakenSnapshot[]>;

/** Whether what was taken answers a question about `only` with `extras`. */
const answers = (taken: TakenSnapshot, only?: OnlyRefs, extras?: ReadExtras) =>
  (taken.only === undefined || (only !== undefined && onlyNames(only).every((n) => onlyNames(taken.only!).includes(n))))
  && (!extras?.protections || (taken.extras?.protections === true && taken.extras.userId === extras.userId));

/** A snapshot narrowed to the refs `only` names (what a statement with `only` would have answered). */
function narrowed(snapshot: RefSnapshot | undefined, only: OnlyRefs | undefined): RefSnapshot | undefined {
  if (!snapshot || only === undefined) return snapshot;
  const wanted = onlyNames(only);
  return { ...snapshot, refs: snapshot.refs.filter((r) => wanted.includes(r.name)) };
}

/** A commit the service wrote itself, with what a ref row says of it. */
export interface WrittenHead {
  sha: string;
  message: string;
  author: { name: string; email: string; time: number };
  committer: { name: string; email: string; time: number };
}

/** The row `for-each-ref` would give a branch at a commit the service wrote (ref-snapshot.ts). */
export function headRow(ref: string, commit: WrittenHead): GitRefRow {
  return {
    name: ref, objectId: commit.sha, objectType: 'commit', commitId: commit.sha,
    // %(contents) of a commit is its message as written (readRefRows drops only the newline
    // for-each-ref adds after each record).
    message: commit.message,
    authorName: commit.author.name, authorEmail: commit.author.email, authorTime: commit.author.time,
    committerName: commit.committer.name, committerEmail: commit.committer.email, committerTime: commit.committer.time,
    tagMessage: '', taggerName: '', taggerEmail: '', taggerTime: 0, creatorTime: commit.committer.time,
  };
}

/**
 * The row `for-each-ref` would give a branch at a commit, from the commit object's bytes;
 * undefined for anything out of the ordinary (other headers, an odd person line), which the
 * turn's full rewrite then reads from git.
 */
export function commitRow(ref: string, sha: string, raw: Buffer): GitRefRow | undefined {
  const text = raw.toString('utf8');
  const end = text.indexOf('\n\n');
  if (end < 0) return undefined;
  const people: Record<string, { name: string; email: string; time: number }> = {};
  for (const line of text.slice(0, end).split('\n')) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    if (key === 'tree' || key === 'parent') continue;
    const person = /^([^<>\n]*?) <([^<>\n]*)> (\d+) [+-]\d{4}$/.exec(line.slice(space + 1));
    if ((key !== 'author' && key !== 'committer') || !person || people[key]) return undefined;
    people[key] = { name: person[1], email: person[2], time: Number(person[3]) };
  }
  if (!people.author || !people.committer) return undefined;
  return headRow(ref, { sha, message: text.slice(end + 2), author: people.author, committer: people.committer });
}

/** What a write turn told the index it moved (noteMove, noteMoves): a row, a removed row, a ref without a row, or anything (full rewrite). */
type Moved = { row: GitRefRow } | { removed: string } | 'no-row' | 'full';

export class RefIndex {
  private readonly pending = new Set<string>();
  private readonly calls = new AsyncLocalStorage<CallSnapshots>();
  /** What the current write turn of a repository moved and told of (noteMove and co), by owner/name. */
  private readonly moved = new Map<string, Moved[]>();

  constructor(private readonly rows: GitRefRows, private readonly storage: RepositoryStorage, private readonly options: RefIndexOptions) {}

  /**
   * Tells the index that this write turn moved `row.name` to a commit it wrote, and moved no
   * other ref: the turn's end then writes that one row instead of rewriting every row from
   * `for-each-ref` (a process, and a statement per ref). Outside a write turn it is ignored
   * (no turn end would write it).
   */
  noteMove(gitDir: string, row: GitRefRow): void {
    this.note(gitDir, { row });
  }

  /**
   * The row of the one ref this write turn moved and told of (noteMove), handed over to be
   * written with the turn's events (write-turn.ts takeRefRow): the turn's end then writes
   * nothing for it. Undefined when the turn told of anything else, or of nothing.
   */
  takeMove(owner: string, name: string): GitRefRow | undefined {
    const key = `${owner}/${name}`.toLowerCase();
    const [only, ...more] = this.moved.get(key) ?? [];
    if (more.length || typeof only !== 'object' || !('row' in only)) return undefined;
    this.moved.delete(key);
    return only.row;
  }

  /**
   * Tells of refs this write turn moved (a merge's base, a deleted head branch, a pull's
   * refs/pull/<index>/head): each new value is read from its commit object (the cat-file
   * cache, no process). Refs outside refs/heads/ and refs/tags/ have no rows: a turn that
   * moved only those writes nothing. Anything not a plain commit asks for the full rewrite at
   * the turn's end.
   */
  async noteMoves(gitDir: string, moves: ReadonlyArray<{ ref: string; newSha: string }>): Promise<void> {
    for (const { ref, newSha } of moves) {
      if (!ref.startsWith(HEADS) && !ref.startsWith(TAGS)) {
        this.note(gitDir, 'no-row');
        continue;
      }
      if (isZeroId(newSha)) {
        this.note(gitDir, { removed: ref });
        continue;
      }
      const found = await this.storage.objects(gitDir).object(newSha).catch(() => undefined);
      const row = found?.type === 'commit' && found.content ? commitRow(ref, newSha, found.content) : undefined;
      this.note(gitDir, row ? { row } : 'full');
    }
  }

  private note(gitDir: string, moved: Moved): void {
    const names = this.namesOf(gitDir);
    if (!names || !inWriteTurn(names.owner, names.name)) return;
    const key = `${names.owner}/${names.name}`.toLowerCase();
    this.moved.set(key, [...(this.moved.get(key) ?? []), moved]);
  }

  /**
   * Brings the repository's rows up to git; called at the end of each of its write turns.
   * A turn that told of its one move (noteMove) writes that row; any other rewrites them all.
   */
  async sync(owner: string, name: string): Promise<void> {
    const key = `${owner}/${name}`.toLowerCase();
    const moved = this.moved.get(key);
    this.moved.delete(key);
    // A row that could not be written leaves the full rewrite to bring them all up to git.
    if (moved && (await this.writeMoves(owner, name, moved).catch(() => false))) return;
    let refs: GitRefRow[];
    try {
      refs = await readRefRows(this.storage.pathOf(owner, name));
    } catch {
      // No git directory (being created, or removed): reads go to git until a turn writes rows.
      await this.rows.forget(owner, name);
      return;
    }
    try {
      await this.rows.replace(owner, name, refs);
    } catch (err) {
      await this.rows.forget(owner, name).catch(() => {});
      throw err;
    }
  }

  private async writeMoves(owner: string, name: string, moved: Moved[]): Promise<boolean> {
    if (moved.includes('full')) return false;
    for (const m of moved) {
      if (m === 'no-row' || m === 'full') continue; // 'full' returned above
      const written = 'row' in m ? await this.rows.upsert(owner, name, m.row) : await this.rows.remove(owner, name, m.removed);
      if (!written) return false;
    }
    return true;
  }

  /**
   * Runs one read call (a gRPC read) so that it reads each repository's rows at most once:
   * the first snapshot it takes of a repository answers its later questions (the ref a
   * revision names, the default branch, the heads). Rows are never kept beyond the call, so
   * the next call sees the write turn that ended meanwhile, on whichever replica it ran.
   */
  readCall<T>(work: () => Promise<T>): Promise<T> {
    return this.calls.run(new Map(), work);
  }

  /**
   * The rows of the repository at `gitDir` (only those `only` names, when given); undefined
   * (and a backfill queued) when it has none yet. Inside readCall() a snapshot already taken
   * that holds what is asked is reused; `extras` (branch protections and the caller's teams)
   * ride on the same statement.
   */
  async snapshot(gitDir: string, only?: OnlyRefs, extras?: ReadExtras, atTurnStart = false): Promise<RefSnapshot | undefined> {
    const names = this.namesOf(gitDir);
    // A writer reading what it just moved: the rows are rewritten only when its turn ends.
    // Before it moved anything (atTurnStart) they are current: the previous turn's end wrote them.
    if (!names || (!atTurnStart && inWriteTurn(names.owner, names.name))) return undefined;
    const call = this.calls.getStore();
    const reused = call?.get(gitDir)?.find((t) => answers(t, only, extras));
    if (reused) return narrowed(await reused.reading, only);
    const reading = this.rows.read(names.owner, names.name, only, extras);
    if (call) call.set(gitDir, [...(call.get(gitDir) ?? []), { only, extras, reading }]);
    const snapshot = await reading;
    if (!snapshot) this.backfillSoon(names.owner, names.name);
    return snapshot;
  }

  /**
   * The repository's branch protection rules at a write turn's start, from the statement
   * that reads its rows (taken first in a readCall, it answers resolveRevision(…, true) too);
   * undefined when it has no rows yet.
   */
  async rulesAtTurnStart(gitDir: string): Promise<BranchProtection[] | undefined> {
    return (await this.snapshot(gitDir, undefined, { protections: true, userId: 0 }, true))?.protections;
  }

  /** The version of the repository's rows (changes with every ref move); undefined when it has none. */
  async version(gitDir: string): Promise<string | undefined> {
    // No ref is named HEAD: the statement answers the state alone.
    return (await this.snapshot(gitDir, 'HEAD'))?.version;
  }

  /** Writes the rows of every repository that has none, one turn at a time (at start). */
  async backfill(batch = 100): Promise<number> {
    const tried = new Set<string>();
    for (;;) {
      const todo = (await this.rows.unsynced(batch + tried.size)).filter((r) => !tried.has(`${r.owner}/${r.name}`.toLowerCase()));
      if (!todo.length) return tried.size;
      for (const { owner, name } of todo) {
        tried.add(`${owner}/${name}`.toLowerCase());
        await this.options.inTurn(owner, name, async () => {}).catch((err) => this.options.onError?.(err, `${owner}/${name}`));
      }
    }
  }

  /**
   * Branch heads in name order (only `only`, a full ref name, when given) with the branch
   * protection rules and `userId`'s teams in the owning organization, from one statement;
   * undefined when the repository has no rows yet.
   */
  async branchesWithRules(gitDir: string, userId: number, only?: string): Promise<{ heads: BranchHead[]; protections: BranchProtection[]; teams: string[] } | undefined> {
    const snapshot = await this.snapshot(gitDir, only, { protections: true, userId });
    if (!snapshot) return undefined;
    const heads = snapshot.refs.filter((r) => r.name.startsWith(HEADS)).map(branchHeadOf);
    return { heads, protections: snapshot.protections ?? [], teams: snapshot.teams ?? [] };
  }

  /** Branch heads in name order (only `only`, a full ref name, when given). */
  async branchHeads(gitDir: string, only?: string): Promise<BranchHead[]> {
    const snapshot = await this.snapshot(gitDir, only);
    if (!snapshot) return listBranchHeads(gitDir, only);
    return snapshot.refs.filter((r) => r.name.startsWith(HEADS)).map(branchHeadOf);
  }

  /** Every tag, newest first. */
  async tags(gitDir: string): Promise<GitTag[]> {
    const snapshot = await this.snapshot(gitDir);
    if (!snapshot) return listTagsByGit(gitDir);
    return snapshot.refs.filter((r) => r.name.startsWith(TAGS)).sort(byCreatorDate).map(tagOf);
  }

  async findTag(gitDir: string, name: string): Promise<GitTag | undefined> {
    if (!isSafeRef(name) || name.startsWith('refs/') || name === 'HEAD') return undefined;
    const snapshot = await this.snapshot(gitDir, `${TAGS}${name}`);
    if (!snapshot) return findTagByGit(gitDir, name);
    const row = snapshot.refs[0];
    return row ? tagOf(row) : undefined;
  }

  /**
   * The commit a branch (its full `refs/heads/` name) points at, from its one row; git's
   * answer when the rows cannot say (none yet, a writer's own turn, or no row of that name).
   */
  async resolveBranch(gitDir: string, ref: string): Promise<string | undefined> {
    const row = ref.startsWith(HEADS) && isSafeRef(ref) ? (await this.snapshot(gitDir, ref))?.refs[0] : undefined;
    return row?.name === ref && row.objectType === 'commit' ? row.objectId : resolveCommitByGit(gitDir, ref);
  }

  /** The commit a caller's revision names (branch, tag, full or short id, HEAD), as `rev-parse <rev>^{commit}`. */
  async resolveCommit(gitDir: string, revision: string): Promise<string | undefined> {
    if (!isSafeRef(revision)) return undefined;
    if (isObjectId(revision)) return (await this.storage.objects(gitDir).peel(revision, 'commit'))?.oid;
    const snapshot = await this.snapshot(gitDir);
    if (!snapshot) return resolveCommitByGit(gitDir, revision);
    const found = dwim(snapshot, revision);
    if (found === 'ask-git') return resolveCommitByGit(gitDir, revision);
    return found?.commitId;
  }

  /**
   * Gitea's ResolveRefCommit: a branch of that name, else a tag, else a commit id (7 to 64 hex
   * digits). `atTurnStart`: asked in a write turn that has moved no ref yet, whose rows are
   * current (a contents write resolving its branch), so they answer instead of git.
   */
  async resolveRevision(gitDir: string, revision: string, atTurnStart = false): Promise<ResolvedRevision | undefined> {
    if (!revision || /[\x00-\x1f\x7f]/.test(revision)) return undefined;
    const snapshot = await this.snapshot(gitDir, undefined, undefined, atTurnStart);
    if (!snapshot) return resolveRevisionByGit(gitDir, revision);
    const branch = snapshot.refs.find((r) => r.name === `${HEADS}${revision}`);
    if (branch?.commitId) return { kind: 'branch', name: revision, commitSha: branch.commitId };
    const tag = snapshot.refs.find((r) => r.name === `${TAGS}${revision}`);
    if (tag?.commitId) return { kind: 'tag', name: revision, commitSha: tag.commitId };
    if (!/^[0-9a-f]{7,64}$/.test(revision)) return undefined;
    if (!isObjectId(revision)) return resolveRevisionByGit(gitDir, revision);
    const commit = await this.storage.objects(gitDir).peel(revision, 'commit');
    return commit ? { kind: 'commit', name: commit.oid, commitSha: commit.oid } : undefined;
  }

  /**
   * Revision names (`<rev>`, `<rev>^{commit}`, `<rev>^{tree}`) → object: refs from the rows,
   * objects from the cat-file cache; git only for what neither can answer (short ids).
   */
  async lookupObjects(gitDir: string, names: readonly string[]): Promise<Map<string, ObjectInfo | undefined>> {
    const objects = this.storage.objects(gitDir);
    const snapshot = names.some((n) => !isObjectId(n.replace(/\^\{(commit|tree)\}$/, ''))) ? await this.snapshot(gitDir) : undefined;
    if (!snapshot) return lookupThroughCache(objects, names);
    const result = new Map<string, ObjectInfo | undefined>();
    const rest: string[] = [];
    await Promise.all(names.map(async (name) => {
      const match = /^(.*?)(\^\{(commit|tree)\})?$/.exec(name)!;
      const [base, , peel] = [match[1], match[2], match[3] as 'commit' | 'tree' | undefined];
      if (isObjectId(base) || !isSafeRef(base)) return void rest.push(name);
      const row = dwim(snapshot, base);
      if (row === 'ask-git') return void rest.push(name);
      if (!row) return void result.set(name, undefined);
      if (!peel) return void result.set(name, { sha: row.objectId, type: row.objectType, size: 0 });
      if (!row.commitId) return void result.set(name, undefined);
      if (peel === 'commit') return void result.set(name, { sha: row.commitId, type: 'commit', size: 0 });
      const tree = await objects.peel(row.commitId, 'tree');
      result.set(name, tree ? { sha: tree.oid, type: tree.type, size: tree.size } : undefined);
    }));
    if (rest.length) for (const [name, info] of await lookupThroughCache(objects, rest)) result.set(name, info);
    return result;
  }

  /** owner and name of a repository directory under the storage root (`<owner>/<name>.git`). */
  private namesOf(gitDir: string): { owner: string; name: string } | undefined {
    const parts = relative(this.storage.root, gitDir).split(sep);
    if (parts.length !== 2 || parts[0].startsWith('..') || !parts[1].endsWith('.git')) return undefined;
    return { owner: parts[0], name: parts[1].slice(0, -'.git'.length) };
  }

  private backfillSoon(owner: string, name: string): void {
    const key = `${owner}/${name}`;
    if (this.pending.has(key)) return;
    this.pending.add(key);
    this.options.inTurn(owner, name, async () => {})
      .catch((err) => this.options.onError?.(err, key))
      .finally(() => this.pending.delete(key));
  }
}
