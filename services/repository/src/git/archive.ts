// Archives of one commit: `git archive` (zip, tar.gz) and `git bundle`, as streaming
// child processes. The ref was resolved to a commit id first, so git only ever sees a
// validated object id, never a caller's string.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, runGit, spawnGit } from './command.js';
import { isSafeName } from './storage.js';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'bundle';

export interface ArchiveRequest {
  ref: string;
  format: ArchiveFormat;
}

const EXTENSIONS: [string, ArchiveFormat][] = [['.tar.gz', 'tar.gz'], ['.zip', 'zip'], ['.bundle', 'bundle']];

/** `v1.0.tar.gz` → { ref: 'v1.0', format: 'tar.gz' }; undefined for anything else. */
export function parseArchiveName(archive: string): ArchiveRequest | undefined {
  for (const [ext, format] of EXTENSIONS) {
    if (archive.endsWith(ext) && archive.length > ext.length) return { ref: archive.slice(0, -ext.length), format };
  }
  return undefined;
}

export const ARCHIVE_CONTENT_TYPES: Record<ArchiveFormat, string> = {
  zip: 'application/zip',
  // What Gitea sends: Go's content sniffing names gzip application/x-gzip.
  'tar.gz': 'application/x-gzip',
  bundle: 'application/octet-stream',
};

/** Gitea's download name: `<repo>-<ref with / as ->.<ext>`. */
export function archiveFileName(repoName: string, request: ArchiveRequest): string {
  return `${repoName}-${request.ref.replace(/\//g, '-')}.${request.format}`;
}

/** The running archiver; `cleanup` removes temporary files once the child has exited. */
export interface Archiver {
  child: ChildProcess;
  cleanup(): Promise<void>;
}

/** `git archive --format=zip|tar.gz --prefix=<repo>/ <commit>` streaming to stdout. */
export function spawnArchive(gitDir: string, repoName: string, commit: string, format: 'zip' | 'tar.gz'): Archiver {
  if (!isSafeName(repoName)) throw new Error(`unsafe prefix ${JSON.stringify(repoName)}`);
  const command = git('archive', { gitDir }).flag(`--format=${format}`, `--prefix=${repoName}/`).oid(commit).build();
  return { child: spawnGit(command), cleanup: async () => undefined };
}

/**
 * A bundle of `commit` and its history, as Gitea makes it: a temporary repository that
 * borrows the objects (alternates), with refs/heads/bundle and HEAD at the commit, so the
 * bundle clones to a checkout of exactly that commit whatever ref was asked for.
 */
export async function spawnBundle(gitDir: string, commit: string): Promise<Archiver> {
  const tmp = await mkdtemp(join(tmpdir(), 'anvil-bundle-'));
  const cleanup = () => rm(tmp, { recursive: true, force: true });
  try {
    const format = commit.length === 64 ? 'sha256' : 'sha1';
    await runGit(git('init').flag('--bare', '--quiet', `--object-format=${format}`).afterEndOfOptions(tmp).build());
    await writeFile(join(tmp, 'objects', 'info', 'alternates'), `${join(gitDir, 'objects')}\n`);
    await runGit(git('update-ref', { gitDir: tmp }).arg('refs/heads/bundle').oid(commit).build());
    await runGit(git('symbolic-ref', { gitDir: tmp }).arg('HEAD').arg('refs/heads/bundle').build());
    // `-` (stdout) is a constant written here, so it goes through flag(), which takes `-…` words.
    const child = spawnGit(git('bundle', { gitDir: tmp }).arg('create').flag('-').arg('refs/heads/bundle').arg('HEAD').build());
    return { child, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
