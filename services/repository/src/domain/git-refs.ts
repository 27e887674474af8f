// A repository's branches and tags as the database holds them (table git_ref): what branch
// lists, branch and tag reads and ref resolution answer from, written from git in the same
// write turn that moves a ref (write-lock.ts). Names are full ref names.
import type { BranchProtection } from './branch-protection.js';
import type { CommitSummary } from './push.js';

/** One branch or tag with the commit it names. Times are unix seconds. */
export interface GitRefRow extends CommitSummary {
  name: string;
  objectId: string;
  /** `commit`, or `tag` for an annotated tag (or a tree/blob in odd repositories). */
  objectType: string;
  /** The commit after peeling a tag; undefined when the ref names no commit. */
  commitId?: string;
  tagMessage: string;
  taggerName: string;
  taggerEmail: string;
  taggerTime: number;
  creatorTime: number;
}

/** One ref's row to write, with the repository it belongs to (by its directory's names). */
export interface RefRowWrite {
  owner: string;
  name: string;
  row: GitRefRow;
}

/** A repository's refs as last written, in name order. */
export interface RefSnapshot {
  /** Changes with every rewrite: keys caches of what the refs decide. */
  version: string;
  /** The repository row's default branch and emptiness, as fresh as the refs. */
  defaultBranch: string;
  empty: boolean;
  refs: GitRefRow[];
  /** With `ReadExtras.protections`: the branch protection rules, and the user's teams in the owning organization. */
  protections?: BranchProtection[];
  teams?: string[];
}

/**
 * What a branch read needs beside the refs, read in the same statement (one SQL statement
 * per read): the protection rules and the names of `userId`'s teams in the owning organization.
 */
export interface ReadExtras {
  protections: boolean;
  userId: number;
}

/**
 * Full ref names a read is narrowed to: one, or several (a merge's base and head, where
 * reading every row of a repository with thousands of branches costs more than the merge).
 */
export type OnlyRefs = string | readonly string[];

/** The names `only` gives, as a list. */
export const onlyNames = (only: OnlyRefs): readonly string[] => (typeof only === 'string' ? [only] : only);

/** The git_ref table, addressed by the owner's login and repository name (case-insensitive). */
export interface GitRefRows {
  /**
   * The repository's refs (only those `only` names, when given); undefined when its rows
   * were never written from git (the caller reads git and has them backfilled).
   */
  read(owner: string, name: string, only?: OnlyRefs, extras?: ReadExtras): Promise<RefSnapshot | undefined>;
  /** Replaces every row of the repository; false when no such repository exists. */
  replace(owner: string, name: string, refs: GitRefRow[]): Promise<boolean>;
  /**
   * Writes one ref's row (new or moved) when the repository's rows are written from git;
   * false when they are not (then only a full replace() may write them).
   */
  upsert(owner: string, name: string, ref: GitRefRow): Promise<boolean>;
  /** Removes one ref's row, as upsert() writes one (false when the rows are not written from git). */
  remove(owner: string, name: string, ref: string): Promise<boolean>;
  /** Marks the rows as not written from git (reads go to git until they are rewritten). */
  forget(owner: string, name: string): Promise<void>;
  /** Repositories whose rows were never written, oldest first. */
  unsynced(limit: number): Promise<Array<{ owner: string; name: string }>>;
}
