// Tags in a bare repository, read with for-each-ref/cat-file and written with mktag and
// update-ref (expected old value given, so a concurrent writer makes the loser fail, never
// overwrite). Every value from a caller passed isSafeRef() or isObjectId() first.
import type { GitAnnotatedTag, GitTag } from '../domain/tags.js';
import { git, GitError, isObjectId, isSafeRef, runGit, UnsafeArgument } from './command.js';

export type { GitAnnotatedTag, GitTag };

const FIELD = '\x1f';
const RECORD = '\x1e';
const FORMAT = [
  '%(refname:strip=2)', '%(objectname)', '%(objecttype)', '%(*objectname)', '%(creatordate:unix)',
  '%(taggername)', '%(taggeremail:trim)', '%(taggerdate:unix)', '%(contents)',
].join(FIELD);

/** A tag name usable as refs/tags/<name>. */
export function isValidTagName(name: string): boolean {
  return isSafeRef(name) && !name.startsWith('refs/') && name !== 'HEAD';
}

function parseTags(out: string): GitTag[] {
  const tags: GitTag[] = [];
  for (const record of out.split(RECORD)) {
    const parts = record.replace(/^\n/, '').split(FIELD);
    if (parts.length < 9) continue;
    const [name, id, type, peeled, created, taggerName, taggerEmail, taggerDate] = parts;
    const message = parts.slice(8).join(FIELD);
    const annotated = type === 'tag';
    tags.push({
      name, id, annotated, message,
      commitSha: annotated ? peeled || id : id,
      created: Number(created) || 0,
      tagger: annotated ? { name: taggerName, email: taggerEmail, when: Number(taggerDate) || 0 } : undefined,
    });
  }
  return tags;
}

/** Every tag, newest first (by creator date, then name for a stable order). */
export async function listTags(gitDir: string): Promise<GitTag[]> {
  const out = await runGit(git('for-each-ref', { gitDir }).flag('--sort=-creatordate', `--format=${FORMAT}${RECORD}`).arg('refs/tags/').build());
  return parseTags(out);
}

export async function findTag(gitDir: string, name: string): Promise<GitTag | undefined> {
  if (!isValidTagName(name)) return undefined;
  // for-each-ref patterns also match deeper refs (refs/tags/v1/x for v1): keep the exact one.
  const out = await runGit(git('for-each-ref', { gitDir }).flag(`--format=${FORMAT}${RECORD}`).ref(`refs/tags/${name}`).build());
  return parseTags(out).find((t) => t.name === name);
}

export class TagExists extends Error {}

/** One line of a signature: no newlines or angle brackets, which would corrupt the object. */
function signatureField(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').trim();
}

/**
 * Creates refs/tags/<name> at `commit`: a tag object first when `message` is set. Fails
 * with TagExists when the tag exists (update-ref with an all-zero old value).
 */
export async function createTag(gitDir: string, name: string, commit: string, message: string, tagger: { name: string; email: string }, now = new Date()): Promise<void> {
  if (!isValidTagName(name)) throw new UnsafeArgument(`not a tag name: ${JSON.stringify(name)}`);
  let target = commit;
  if (message) {
    const when = `${Math.floor(now.getTime() / 1000)} +0000`;
    const body = message.endsWith('\n') ? message : `${message}\n`;
    const object = `object ${commit}\ntype commit\ntag ${name}\ntagger ${signatureField(tagger.name)} <${signatureField(tagger.email)}> ${when}\n\n${body}`;
    target = (await runGit(git('mktag', { gitDir }).build(), { stdin: object })).trim();
  }
  try {
    await runGit(git('update-ref', { gitDir }).ref(`refs/tags/${name}`).oid(target).oid('0'.repeat(target.length)).build());
  } catch (err) {
    if (err instanceof GitError) throw new TagExists(name);
    throw err;
  }
}

/** Deletes refs/tags/<name> if it still points at `id`; false when it did not. */
export async function deleteTag(gitDir: string, name: string, id: string): Promise<boolean> {
  try {
    await runGit(git('update-ref', { gitDir }).flag('-d').ref(`refs/tags/${name}`).oid(id).build());
    return true;
  } catch (err) {
    if (err instanceof GitError) return false;
    throw err;
  }
}

/** The annotated tag object `sha`; undefined when it is missing or not a tag object. */
export async function readTagObject(gitDir: string, sha: string): Promise<GitAnnotatedTag | undefined> {
  if (!isObjectId(sha)) return undefined;
  let raw: string;
  try {
    const type = (await runGit(git('cat-file', { gitDir }).flag('-t').oid(sha).build())).trim();
    if (type !== 'tag') return undefined;
    raw = await runGit(git('cat-file', { gitDir }).arg('tag').oid(sha).build());
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
  const split = raw.indexOf('\n\n');
  const header = split >= 0 ? raw.slice(0, split) : raw;
  const message = split >= 0 ? raw.slice(split + 2) : '';
  const fields = new Map<string, string>();
  for (const line of header.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && !fields.has(line.slice(0, space))) fields.set(line.slice(0, space), line.slice(space + 1));
  }
  const tagger = /^(.*) <(.*)> (\d+) [+-]\d{4}$/.exec(fields.get('tagger') ?? '');
  return {
    sha, message,
    tag: fields.get('tag') ?? '',
    objectSha: fields.get('object') ?? '',
    objectType: fields.get('type') ?? '',
    tagger: { name: tagger?.[1] ?? '', email: tagger?.[2] ?? '', when: Number(tagger?.[3] ?? 0) },
  };
}
