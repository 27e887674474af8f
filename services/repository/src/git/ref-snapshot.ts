// Every branch and tag of a repository with the commit it names, from one `for-each-ref`:
// the rows of the git_ref table (domain/git-refs.ts).
import type { GitRefRow } from '../domain/git-refs.js';
import { git, isObjectId, runGit } from './command.js';

const FIELD = '\x1f';
const RECORD = '\x1e';
// `*` fields are the peeled object's (an annotated tag's commit); messages come last.
const FORMAT = [
  '%(refname)', '%(objectname)', '%(objecttype)', '%(*objectname)', '%(*objecttype)',
  '%(authorname)', '%(authoremail:trim)', '%(authordate:unix)', '%(committername)', '%(committeremail:trim)', '%(committerdate:unix)',
  '%(*authorname)', '%(*authoremail:trim)', '%(*authordate:unix)', '%(*committername)', '%(*committeremail:trim)', '%(*committerdate:unix)',
  '%(taggername)', '%(taggeremail:trim)', '%(taggerdate:unix)', '%(creatordate:unix)', '%(*contents)', '%(contents)',
].join(FIELD);

const num = (value: string | undefined) => Number(value) || 0;

/** The rows of refs/heads/ and refs/tags/, in name order. */
export async function readRefRows(gitDir: string): Promise<GitRefRow[]> {
  const out = await runGit(git('for-each-ref', { gitDir }).flag(`--format=${RECORD}${FORMAT}`, '--sort=refname').arg('refs/heads/').arg('refs/tags/').build());
  const rows: GitRefRow[] = [];
  for (const record of out.split(RECORD).slice(1)) {
    const f = record.split(FIELD);
    if (f.length < 23 || !isObjectId(f[1])) continue;
    // for-each-ref ends each record with a newline of its own after the last field.
    const contents = f.slice(22).join(FIELD).replace(/\n$/, '');
    const [name, objectId, objectType, peeledId, peeledType] = f;
    const annotated = objectType === 'tag';
    const commitId = annotated ? (peeledType === 'commit' ? peeledId : undefined) : objectType === 'commit' ? objectId : undefined;
    const c = annotated ? 11 : 5; // where the commit's people start
    rows.push({
      name, objectId, objectType, commitId,
      message: annotated ? f[21] : contents,
      authorName: f[c], authorEmail: f[c + 1], authorTime: num(f[c + 2]),
      committerName: f[c + 3], committerEmail: f[c + 4], committerTime: num(f[c + 5]),
      tagMessage: annotated ? contents : '',
      taggerName: f[17], taggerEmail: f[18], taggerTime: num(f[19]),
      creatorTime: num(f[20]),
    });
  }
  return rows;
}
