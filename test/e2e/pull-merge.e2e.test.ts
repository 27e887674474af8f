// Merging pull requests through the gateway with real git: each refusal Gitea answers, a
// merge that deletes its head branch (the pull keeps reporting its head), and protection.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'pm-user', events: 'collaboration' });
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user'];
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function repoWithPull(owner: Writer, file = 'feature.txt') {
  const name = e2e.users.unique('merge-');
  expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
  const base = `/repos/${owner.username}/${name}`;
  expect((await owner.client.post(`${base}/contents/${file}`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
  const pull = await owner.client.post(`${base}/pulls`, { title: 'Add feature', head: 'topic', base: 'main' });
  expect(pull.status).toBe(201);
  return { base, pull: pull.body };
}

const mainSha = async (owner: Writer, base: string) => (await owner.client.get(`${base}/branches/main`)).body.commit.id as string;

describe('merging a pull request', () => {
  it('merges, reports it merged, and deletes the head branch while the pull keeps its head', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(404);

    const merged = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge', merge_message_field: 'Ship it', delete_branch_after_merge: true });
    expect(merged.status).toBe(200);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(204);

    const read = await owner.client.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ state: 'closed', merged: true, merged_by: { login: owner.username }, head: { ref: 'topic', sha: pull.head.sha } });
    expect(read.body.merge_commit_sha).toBe(await mainSha(owner, base));
    expect((await owner.client.get(`${base}/branches/topic`)).status).toBe(404);
    const commit = await owner.client.get(`${base}/git/commits/${read.body.merge_commit_sha}`);
    expect(commit.body.commit.message).toContain('Ship it');
    expect(commit.body.parents).toHaveLength(2);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.closed' && e.payload.pull_request?.has_merged === true);

    // Merged pulls are refused again (405), as are closed ones (404).
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(405);
    // The diff still shows what the pull changed, from the pull's own head ref.
    expect((await owner.client.get(`${base}/pulls/1.diff`)).text).toContain('+++ b/feature.txt');
  });

  it('merges a pull whose head branch was deleted, from the head the pull kept', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    expect((await owner.client.delete(`${base}/branches/topic`)).status).toBe(204);
    const merged = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(merged.status).toBe(200);
    const read = await owner.client.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ merged: true, head: { sha: pull.head.sha } });
    const commit = await owner.client.get(`${base}/git/commits/${read.body.merge_commit_sha}`);
    expect(commit.body.parents.map((p: { sha: string }) => p.sha)).toContain(pull.head.sha);
  });

  it('squashes into one commit on the base', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    const before = await mainSha(owner, base);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'squash' })).status).toBe(200);
    const commit = await owner.client.get(`${base}/git/commits/${await mainSha(owner, base)}`);
    expect(commit.body.parents.map((p: { sha: string }) => p.sha)).toEqual([before]);
    expect(commit.body.commit.message).toContain('Add feature (#1)');
  });

  it('refuses an unknown style, a stale head_commit_id, a closed pull and a conflicting one', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner, 'shared.txt');
    // Gitea's binding answers 422, though the document does not declare it for this operation.
    expect((await owner.client.undeclared('POST', `${base}/pulls/1/merge`, { do: 'octopus' })).status).toBe(422);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge', head_commit_id: 'a'.repeat(40) })).status).toBe(409);

    // The base changes the same file meanwhile: a conflict, and nothing lands.
    expect((await owner.client.post(`${base}/contents/shared.txt`, { content: b64('base side\n'), message: 'base edit' })).status).toBe(201);
    const before = await mainSha(owner, base);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(409);
    expect(await mainSha(owner, base)).toBe(before);

    expect((await owner.client.patch(`${base}/pulls/1`, { state: 'closed' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(404);
  });
});

describe('a merge racing a push to the base', () => {
  it('lands both or answers a clean 409, and loses no commit', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    const [merge, push] = await Promise.all([
      owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' }),
      owner.client.post(`${base}/contents/pushed.txt`, { content: b64('pushed\n'), message: 'Pushed meanwhile' }),
    ]);
    expect([200, 409]).toContain(merge.status);
    expect([201, 409]).toContain(push.status);
    const log = await owner.client.get(`${base}/commits?sha=main&limit=50&stat=false&verification=false&files=false`);
    const shas = log.body.map((c: { sha: string }) => c.sha);
    if (merge.status === 200) expect(shas).toContain(pull.head.sha);
    if (push.status === 201) expect(shas).toContain(push.body.commit.sha);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(merge.status === 200 ? 204 : 404);
  });
});

describe('merging under branch protection', () => {
  it('refuses a reader with 405, and lets a merge-whitelisted reader merge', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const reader = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    const refused = await reader.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('User not allowed to merge PR');

    expect((await owner.client.post(`${base}/branch_protections`, {
      rule_name: 'main', enable_merge_whitelist: true, merge_whitelist_usernames: [reader.username],
    })).status).toBe(201);
    expect((await reader.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
  });

  it('lets a reader in a merge-whitelisted team merge, and refuses a reader in another team', async () => {
    const owner = await e2e.newWriter({ scopes: [...SCOPES, 'write:organization'] });
    const member = await e2e.newWriter({ scopes: SCOPES });
    const outsider = await e2e.newWriter({ scopes: SCOPES });
    const org = e2e.users.unique('mergers-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    expect((await owner.client.post(`/orgs/${org}/repos`, { name: 'app', auto_init: true, private: true })).status).toBe(201);
    const base = `/repos/${org}/app`;
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Add feature', head: 'topic', base: 'main' })).status).toBe(201);
    const readersTeam = async (name: string, who: Writer) => {
      const team = await owner.client.post(`/orgs/${org}/teams`, { name, permission: 'read', units: ['repo.code', 'repo.pulls'] });
      expect(team.status).toBe(201);
      expect((await owner.client.put(`/teams/${team.body.id}/members/${who.username}`)).status).toBe(204);
      expect((await owner.client.put(`/teams/${team.body.id}/repos/${org}/app`)).status).toBe(204);
      await e2e.users.eventually(() => who.client.get(base), 200);
    };
    await readersTeam('Mergers', member);
    await readersTeam('others', outsider);
    expect((await owner.client.post(`${base}/branch_protections`, {
      rule_name: 'main', enable_merge_whitelist: true, merge_whitelist_teams: ['mergers'],
    })).status).toBe(201);

    const refused = await outsider.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect([refused.status, refused.body.message]).toEqual([405, 'User not allowed to merge PR']);
    expect((await member.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
    expect((await member.client.get(`${base}/pulls/1`)).body.merged).toBe(true);
  });

  it('refuses a pull that changes a protected file with the rule\'s message', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner, 'deps.lock');
    expect((await owner.client.post(`${base}/branch_protections`, { rule_name: 'main', enable_push: true, protected_file_patterns: '*.lock' })).status).toBe(201);
    const before = await mainSha(owner, base);
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('branch main is protected from changing file deps.lock');
    expect(await mainSha(owner, base)).toBe(before);
  });
});

describe('merging under the repository\'s merge settings', () => {
  it('refuses a merge style the repository does not allow with 405, and merges once it is allowed', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    const repoName = base.replace('/repos/', '');
    const edited = await owner.client.patch(`/repos/${repoName}`, { allow_squash_merge: false, allow_rebase: false });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ allow_squash_merge: false, allow_rebase: false, allow_merge_commits: true });
    const before = await mainSha(owner, base);
    for (const style of ['squash', 'rebase']) {
      const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: style });
      expect(refused.status).toBe(405);
      expect(refused.body.message).toBe(`${style} is not allowed an allowed merge style for this repository`);
    }
    expect(await mainSha(owner, base)).toBe(before);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(404);

    expect((await owner.client.patch(`/repos/${repoName}`, { allow_squash_merge: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'squash' })).status).toBe(200);
  });

  it('marks a pull manually merged only when the repository allows it and the commit is on the base', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    const repoName = base.replace('/repos/', '');
    const onMain = await mainSha(owner, base);
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'manually-merged', merge_commit_id: onMain });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('manually-merged is not allowed an allowed merge style for this repository');

    expect((await owner.client.patch(`/repos/${repoName}`, { allow_manual_merge: true })).status).toBe(200);
    // The head commit is not on the base branch, and a short id is no commit id.
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'manually-merged', merge_commit_id: pull.head.sha })).status).toBe(409);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'manually-merged', merge_commit_id: onMain.slice(0, 10) })).status).toBe(409);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(404);

    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'manually-merged', merge_commit_id: onMain })).status).toBe(200);
    const read = await owner.client.get(`${base}/pulls/1`);
    expect(read.body).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: onMain });
    // Nothing was written to the base.
    expect(await mainSha(owner, base)).toBe(onMain);
  });

  it('deletes the head branch after a merge by default when the repository says so, unless the merger keeps it', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    const repoName = base.replace('/repos/', '');
    expect((await owner.client.patch(`/repos/${repoName}`, { default_delete_branch_after_merge: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/contents/second.txt`, { content: b64('two\n'), new_branch: 'kept', message: 'Second' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Second', head: 'kept', base: 'main' })).status).toBe(201);

    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
    expect((await owner.client.get(`${base}/branches/topic`)).status).toBe(404);
    expect((await owner.client.post(`${base}/pulls/2/merge`, { do: 'merge', delete_branch_after_merge: false })).status).toBe(200);
    expect((await owner.client.get(`${base}/branches/kept`)).status).toBe(200);
  });
});

describe('updating a pull request\'s branch from its base', () => {
  const branchSha = async (owner: Writer, base: string, branch: string) => (await owner.client.get(`${base}/branches/${branch}`)).body.commit.id as string;

  /** Waits (generously: the push consumer follows the moved head) until the pull reports `sha` as its head. */
  async function pullHeadBecomes(owner: Writer, base: string, sha: string) {
    for (let i = 0; i < 120; i++) {
      if ((await owner.client.get(`${base}/pulls/1`)).body.head.sha === sha) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`the pull never reported head ${sha}`);
  }

  it('merges the base into the head, and the pull follows its new head', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    expect((await owner.client.post(`${base}/contents/later.txt`, { content: b64('later\n'), message: 'Later on main' })).status).toBe(201);
    const main = await mainSha(owner, base);
    expect((await owner.client.post(`${base}/pulls/1/update?style=merge`)).status).toBe(200);
    const head = await branchSha(owner, base, 'topic');
    const commit = (await owner.client.get(`${base}/git/commits/${head}`)).body;
    expect(commit.parents.map((p: { sha: string }) => p.sha)).toEqual([pull.head.sha, main]);
    expect(commit.commit.message).toContain(`Merge branch 'main' into topic`);
    await pullHeadBecomes(owner, base, head);
  });

  it('rebases the head onto the base', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    expect((await owner.client.post(`${base}/contents/later.txt`, { content: b64('later\n'), message: 'Later on main' })).status).toBe(201);
    const main = await mainSha(owner, base);
    expect((await owner.client.post(`${base}/pulls/1/update?style=rebase`)).status).toBe(200);
    const head = await branchSha(owner, base, 'topic');
    const commit = (await owner.client.get(`${base}/git/commits/${head}`)).body;
    expect(commit.parents.map((p: { sha: string }) => p.sha)).toEqual([main]);
    expect(commit.commit.message).toContain('Add feature');
    await pullHeadBecomes(owner, base, head);
  });

  it('refuses a conflict with 409, a style the repository turned off and a reader with 403, moving nothing', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const reader = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner, 'shared.txt');
    expect((await owner.client.post(`${base}/contents/shared.txt`, { content: b64('base side\n'), message: 'base edit' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/update?style=merge`)).status).toBe(409);
    expect((await owner.client.post(`${base}/pulls/1/update?style=rebase`)).status).toBe(409);
    expect((await owner.client.patch(base, { allow_rebase_update: false })).status).toBe(200);
    expect((await owner.client.post(`${base}/pulls/1/update?style=rebase`)).status).toBe(403);
    expect((await reader.client.post(`${base}/pulls/1/update`)).status).toBe(403);
    expect(await branchSha(owner, base, 'topic')).toBe(pull.head.sha);
  });
});

describe('merging when the checks succeed', () => {
  // Gitea answers a scheduled merge 201, which the document does not declare for this operation.
  const schedule = (who: Writer, base: string, style: string) =>
    who.client.undeclared('POST', `${base}/pulls/1/merge`, { do: style, merge_when_checks_succeed: true });
  /** Waits (generously: a consumer of commit statuses merges) until the pull is merged. */
  async function mergedSoon(owner: Writer, base: string) {
    for (let i = 0; i < 120; i++) {
      if ((await owner.client.get(`${base}/pulls/1/merge`)).status === 204) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('the scheduled merge never happened');
  }

  it('schedules the merge while a check is pending and merges once it succeeds', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    expect((await owner.client.post(`${base}/statuses/${pull.head.sha}`, { state: 'pending', context: 'ci/build' })).status).toBe(201);
    expect((await schedule(owner, base, 'squash')).status).toBe(201);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(404);
    expect((await schedule(owner, base, 'squash')).status).toBe(409);

    const before = await mainSha(owner, base);
    expect((await owner.client.post(`${base}/statuses/${pull.head.sha}`, { state: 'success', context: 'ci/build' })).status).toBe(201);
    await mergedSoon(owner, base);
    const read = (await owner.client.get(`${base}/pulls/1`)).body;
    expect(read).toMatchObject({ merged: true, merged_by: { login: owner.username }, merge_commit_sha: await mainSha(owner, base) });
    const commit = (await owner.client.get(`${base}/git/commits/${read.merge_commit_sha}`)).body;
    expect(commit.parents.map((p: { sha: string }) => p.sha)).toEqual([before]);
    // Nothing is left to cancel.
    expect((await owner.client.delete(`${base}/pulls/1/merge`)).status).toBe(404);
  });

  it('merges at once when the checks already succeeded', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const { base, pull } = await repoWithPull(owner);
    expect((await owner.client.post(`${base}/statuses/${pull.head.sha}`, { state: 'success', context: 'ci/build' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge', merge_when_checks_succeed: true })).status).toBe(200);
    expect((await owner.client.get(`${base}/pulls/1/merge`)).status).toBe(204);
  });

  it('cancels a scheduled merge for its doer, not for another user', async () => {
    const owner = await e2e.newWriter({ scopes: SCOPES });
    const other = await e2e.newWriter({ scopes: SCOPES });
    const { base } = await repoWithPull(owner);
    expect((await owner.client.delete(`${base}/pulls/1/merge`)).status).toBe(404);
    expect((await schedule(owner, base, 'merge')).status).toBe(201);
    expect((await other.client.delete(`${base}/pulls/1/merge`)).status).toBe(403);
    expect((await owner.client.delete(`${base}/pulls/1/merge`)).status).toBe(204);
    expect((await owner.client.delete(`${base}/pulls/1/merge`)).status).toBe(404);
    // It can be scheduled again once cancelled.
    expect((await schedule(owner, base, 'merge')).status).toBe(201);
  });
});
