// Commits as a Gitea client sees them, on a repository filled by `git push` with the real git
// CLI: the paginated list (summaries only, Gitea's paging headers), its sha/path/not filters,
// files and stats, one commit with its full message, its diff and patch as git prints them,
// comparisons, and the errors Gitea answers.
import { mkdir, mkdtemp, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(120_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let users: Accounts;
let home: string;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'cm-user', gitHome: true });
  ({ system, anonymous, users, home } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user known to the repository service, with a token that may write repositories. */
const newUser = () => e2e.newWriter();

type User = Awaited<ReturnType<typeof newUser>>;

/** Commits as `user` (their e-mail, so the API names them as the author). */
async function commitAs(user: User, work: string, message: string, change: () => Promise<void>): Promise<string> {
  await change();
  expect((await git(['add', '-A'], work)).code).toBe(0);
  const done = await git(['-c', `user.name=${user.username}`, '-c', `user.email=${user.email}`, 'commit', '-q', '-m', message], work);
  expect(done.code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
}

interface History {
  base: string;
  work: string;
  first: string;
  second: string;
  third: string;
  feature: string;
}

/**
 * main: first (adds a.txt) → second (changes a.txt, adds b.txt) → third (removes b.txt);
 * feature: first → "feature work" (adds docs/f.md); tag v1.0 at first. All pushed with git.
 */
async function pushedHistory(user: User, name: string, isPrivate = false): Promise<History> {
  expect((await user.client.post('/user/repos', { name, private: isPrivate })).status).toBe(201);
  const dir = await mkdtemp(join(home, `${name}-`));
  const work = join(dir, 'work');
  expect((await git(['init', '-q', work], dir)).code).toBe(0);
  const first = await commitAs(user, work, 'first commit\n\nThe body of the first commit.', () => writeFile(join(work, 'a.txt'), 'one\n'));
  const second = await commitAs(user, work, 'second commit\n\nMore words.', async () => {
    await writeFile(join(work, 'a.txt'), 'one\ntwo\nthree\n');
    await writeFile(join(work, 'b.txt'), 'bee\n');
  });
  const third = await commitAs(user, work, 'third commit', () => unlink(join(work, 'b.txt')));
  expect((await git(['checkout', '-q', '-b', 'feature', first], work)).code).toBe(0);
  const feature = await commitAs(user, work, 'feature work', async () => {
    await mkdir(join(work, 'docs'));
    await writeFile(join(work, 'docs', 'f.md'), '# F\n');
  });
  const remote = cloneUrl(system.baseUrl, `${user.username}/${name}.git`, user.username, user.token);
  expect((await git(['tag', 'v1.0', first], work)).code).toBe(0);
  const pushed = await git(['push', '-q', remote, 'main', 'feature', 'v1.0'], work);
  expect(pushed.code).toBe(0);
  return { base: `/repos/${user.username}/${name}`, work, first, second, third, feature };
}

let ada: User;
let history: History;

beforeAll(async () => {
  ada = await newUser();
  history = await pushedHistory(ada, 'history');
});

describe('listing commits', () => {
  test('pages newest first with Gitea\'s paging headers and the summary line as the message', async () => {
    const page1 = await anonymous.get(`${history.base}/commits?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.map((c: { sha: string }) => c.sha)).toEqual([history.third, history.second]);
    expect(page1.body.map((c: { commit: { message: string } }) => c.commit.message)).toEqual(['third commit', 'second commit']);
    expect(page1.headers.get('x-total-count')).toBe('3');
    expect(page1.headers.get('x-total')).toBe('3');
    expect(page1.headers.get('x-page')).toBe('1');
    expect(page1.headers.get('x-perpage')).toBe('2');
    expect(page1.headers.get('x-pagecount')).toBe('2');
    expect(page1.headers.get('x-hasmore')).toBe('true');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.headers.get('access-control-expose-headers')).toContain('X-HasMore');

    const page2 = await anonymous.get(`${history.base}/commits?limit=2&page=2`);
    expect(page2.body.map((c: { commit: { message: string } }) => c.commit.message)).toEqual(['first commit']);
    expect(page2.headers.get('x-hasmore')).toBe('false');
  });

  test('names the author and committer as users, with files, stats and verification by default', async () => {
    const res = await anonymous.get(`${history.base}/commits?limit=1&sha=${history.second}`);
    const [commit] = res.body;
    expect(commit).toMatchObject({
      sha: history.second,
      html_url: expect.stringMatching(new RegExp(`/${ada.username}/history/commit/${history.second}$`)),
      url: expect.stringMatching(new RegExp(`/api/v1/repos/${ada.username}/history/git/commits/${history.second}$`)),
      author: { login: ada.username },
      committer: { login: ada.username },
      parents: [{ sha: history.first }],
      stats: { additions: 3, deletions: 0, total: 3 },
      commit: {
        author: { name: ada.username, email: ada.email },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
      },
    });
    expect(commit.files).toEqual(expect.arrayContaining([{ filename: 'a.txt', status: 'modified' }, { filename: 'b.txt', status: 'added' }]));
    expect(commit.files).toHaveLength(2);
  });

  test('leaves out stats, files and verification when asked to', async () => {
    const res = await anonymous.get(`${history.base}/commits?limit=1&stat=false&files=false&verification=false`);
    expect(res.body[0]).toMatchObject({ stats: null, files: null, commit: { verification: null } });
  });

  test('starts from a branch, tag or sha, keeps to a path and leaves out what `not` reaches', async () => {
    const fromFeature = await anonymous.get(`${history.base}/commits?sha=feature`);
    expect(fromFeature.body.map((c: { sha: string }) => c.sha)).toEqual([history.feature, history.first]);
    const fromTag = await anonymous.get(`${history.base}/commits?sha=v1.0`);
    expect(fromTag.body.map((c: { sha: string }) => c.sha)).toEqual([history.first]);
    const fromSha = await anonymous.get(`${history.base}/commits?sha=${history.second}`);
    expect(fromSha.body.map((c: { sha: string }) => c.sha)).toEqual([history.second, history.first]);

    const touchingB = await anonymous.get(`${history.base}/commits?path=b.txt`);
    expect(touchingB.body.map((c: { sha: string }) => c.sha)).toEqual([history.third, history.second]);
    expect(touchingB.headers.get('x-total-count')).toBe('2');

    const notFeature = await anonymous.get(`${history.base}/commits?not=feature`);
    expect(notFeature.body.map((c: { sha: string }) => c.sha)).toEqual([history.third, history.second]);

    expect((await anonymous.get(`${history.base}/commits?sha=no-such-branch`)).status).toBe(404);
    expect((await anonymous.get(`${history.base}/commits?path=never/there.txt`)).status).toBe(404);
    // A path outside the repository is one no commit touches, not a failure of git; a path
    // is taken literally, never as pathspec magic.
    for (const path of ['..', '../b.txt', '/b.txt', 'a/../../b.txt', ':(glob)*.txt']) {
      expect((await anonymous.get(`${history.base}/commits?path=${encodeURIComponent(path)}`)).status).toBe(404);
    }
    const sameFile = await anonymous.get(`${history.base}/commits?path=${encodeURIComponent('./b.txt')}`);
    expect(sameFile.body.map((c: { sha: string }) => c.sha)).toEqual([history.third, history.second]);
  });

  test('keeps to commits made since or until a time, and refuses a time that is not RFC 3339', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const past = '2001-01-01T00:00:00Z';
    const all = await anonymous.get(`${history.base}/commits?since=${past}&until=${future}`);
    expect(all.headers.get('x-total-count')).toBe('3');
    const none = await anonymous.get(`${history.base}/commits?since=${future}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
    const bad = await anonymous.undeclared('GET', `${history.base}/commits?since=yesterday`);
    expect(bad.status).toBe(422);
  });

  test('an empty repository answers 409 "Git Repository is empty."', async () => {
    expect((await ada.client.post('/user/repos', { name: 'blank' })).status).toBe(201);
    const res = await anonymous.get(`/repos/${ada.username}/blank/commits`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Git Repository is empty.');
  });
});

describe('one commit', () => {
  test('has its full message, parents and tree, by sha or by ref', async () => {
    const bySha = await anonymous.get(`${history.base}/git/commits/${history.second}`);
    expect(bySha.status).toBe(200);
    expect(bySha.body.commit.message).toBe('second commit\n\nMore words.\n');
    expect(bySha.body.parents.map((p: { sha: string }) => p.sha)).toEqual([history.first]);
    const tree = (await git(['rev-parse', `${history.second}^{tree}`], history.work)).stdout.trim();
    expect(bySha.body.commit.tree.sha).toBe(tree);

    // A ref with a dot is a ref, not a `.{diffType}` request.
    expect((await anonymous.get(`${history.base}/git/commits/v1.0`)).body.sha).toBe(history.first);
    const byBranch = await anonymous.get(`${history.base}/git/commits/feature`);
    expect(byBranch.body.sha).toBe(history.feature);
    expect(byBranch.body.files).toEqual([{ filename: 'docs/f.md', status: 'added' }]);
  });

  test('an unknown sha is 404 and something that cannot be a ref is 422', async () => {
    expect((await anonymous.get(`${history.base}/git/commits/${'0'.repeat(40)}`)).status).toBe(404);
    const bad = await anonymous.get(`${history.base}/git/commits/bad~ref`);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('no valid ref or sha: bad~ref');
  });

  test('GET /commits/{ref} answers the same commit for a branch, a tag or a sha, and validates the ref', async () => {
    const asSingle = (ref: string) => anonymous.request('GET', `${history.base}/commits/${ref}`, { validateAs: `${history.base}/git/commits/${ref}` });
    const byBranch = await asSingle('feature');
    expect(byBranch.status).toBe(200);
    expect(byBranch.body.sha).toBe(history.feature);
    expect((await asSingle('v1.0')).body.sha).toBe(history.first);
    const bySha = await asSingle(history.second);
    expect(bySha.body.commit.message).toBe('second commit\n\nMore words.\n');
    expect((await asSingle('0'.repeat(40))).status).toBe(404);
    const bad = await asSingle('bad~ref');
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('no valid ref or sha: bad~ref');
    // The status routes under /commits/{ref} keep their meaning.
    expect((await anonymous.get(`${history.base}/commits/feature/status`)).body.sha).toBe(history.feature);
  });

  test('its diff and patch are git\'s own text, as text/plain, also with a token', async () => {
    const withToken = anonymous.as({ token: ada.token });
    const diff = await withToken.get(`${history.base}/git/commits/${history.second}.diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toContain('text/plain');
    expect(diff.text).toBe((await git(['diff', '-M', history.first, history.second], history.work)).stdout);

    const patch = await withToken.get(`${history.base}/git/commits/${history.second}.patch`);
    expect(patch.status).toBe(200);
    expect(patch.text).toBe((await git(['format-patch', '--no-signature', '--stdout', '-1', history.second], history.work)).stdout);
    expect(patch.text).toContain('Subject: [PATCH] second commit');

    const root = await anonymous.get(`${history.base}/git/commits/${history.first}.diff`);
    expect(root.text).toContain('+one');
    expect((await anonymous.get(`${history.base}/git/commits/${'0'.repeat(40)}.patch`)).status).toBe(404);
  });
});

describe('comparing', () => {
  test('lists what head has and base lacks, with base...head and base..head', async () => {
    const three = await anonymous.get(`${history.base}/compare/main...feature`);
    expect(three.status).toBe(200);
    expect(three.body.total_commits).toBe(1);
    expect(three.body.commits[0]).toMatchObject({ sha: history.feature, commit: { message: 'feature work\n' } });

    const two = await anonymous.get(`${history.base}/compare/feature..main`);
    expect(two.body.commits.map((c: { sha: string }) => c.sha)).toEqual([history.third, history.second]);
    expect(two.body.total_commits).toBe(2);

    expect((await anonymous.get(`${history.base}/compare/main...nope`)).status).toBe(404);
  });
});

describe('who may read commits', () => {
  test('a private repository\'s commits are 404 to anyone who cannot see it', async () => {
    const secret = await pushedHistory(ada, 'secret', true);
    const bob = await newUser();
    for (const client of [anonymous, bob.client]) {
      expect((await client.get(`${secret.base}/commits`)).status).toBe(404);
      expect((await client.get(`${secret.base}/git/commits/${secret.first}`)).status).toBe(404);
      expect((await client.get(`${secret.base}/git/commits/${secret.first}.diff`)).status).toBe(404);
      expect((await client.get(`${secret.base}/compare/main...feature`)).status).toBe(404);
    }
    expect((await ada.client.get(`${secret.base}/commits`)).status).toBe(200);
  });
});
