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

// git's ident.c crud(): what it strips from both ends of a name or e-mail.
const crud = (c: number) => c <= 32 || c === 0x2c || c === 0x3a || c === 0x3b || c === 0x3c || c === 0x3e || c === 0x22 || c === 0x5c || c === 0x27;

/** A name or e-mail git writes exactly as given (nothing to strip or drop). */
function writtenAsIs(value: string): boolean {
  if (/[\n<>\0]/.test(value)) return false;
  return value === '' || (!crud(value.charCodeAt(0)) && !crud(value.charCodeAt(value.length - 1)));
}

/** An author or committer the commit writer writes itself, exactly as given (else git commit-tree does, and may change it). */
export const plainSignature = (s: Signature) => s.name !== '' && writtenAsIs(s.name) && writtenAsIs(s.email) && Number.isSafeInteger(s.time) && s.time >= 0;

/** Whether a commit of these parts is stored byte for byte as given: what the writer knows of it is then what git will show. */
export const writtenAsGiven = (parts: Pick<CommitParts, 'author' | 'committer' | 'message'>) =>
  plainSignature(parts.author) && plainSignature(parts.committer) && !parts.message.includes('\0');
