// What the service writes as a commit (contents API, merges, a new repository's first
// commit): the vocabulary of the git adapter's commit writer (git/file-changes-git.ts).

/** Who made a commit, and when. */
export interface Signature {
  name: string;
  email: string;
  /** Unix seconds. */
  time: number;
}

export type IndexChange =
  | { path: string; mode: string; content: Buffer }
  | { path: string; mode: string; blobSha: string }
  | { path: string; remove: true };

export interface NewCommit {
  /** Undefined for the first commit of an empty repository. */
  parent?: string;
  changes: IndexChange[];
  message: string;
  author: Signature;
  committer: Signature;
  objectFormat: 'sha1' | 'sha256';
}

/** One commit object from a tree that is already written (merges, squashes, rebases). */
export interface CommitParts {
  tree: string;
  parents: string[];
  message: string;
  author: Signature;
  committer: Signature;
}

export interface WrittenCommit {
  commitSha: string;
  treeSha: string;
  /** Blob id and size of each path written, by path. */
  blobs: Map<string, { sha: string; size: number }>;
  /** Bytes the new objects added on disk, when the writer counted them (the repository's size grows by them). */
  bytes?: number;
}
