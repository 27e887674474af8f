// Reviews of pull requests through the gateway, and the merge rules of branch protection
// that read them (required approvals, requested changes, stale approvals, status checks,
// the admin override), each refused with Gitea's 405 and reason.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(120_000);

let e2e: E2e;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'rv-user', events: 'collaboration' });
}, 180_000);

afterAll(() => e2e?.close());

const SCOPES = ['write:repository', 'write:issue', 'write:user'];
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A repository of `owner` with a pull from `topic`, and a collaborator who may write. */
async function pullWithReviewer() {
  const owner = await e2e.newWriter({ scopes: SCOPES });
  const reviewer = await e2e.newWriter({ scopes: SCOPES });
  const name = e2e.users.unique('reviews-');
  expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
  const base = `/repos/${owner.username}/${name}`;
  expect((await owner.client.put(`${base}/collaborators/${reviewer.username}`, { permission: 'write' })).status).toBe(204);
  expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
  const pull = await owner.client.post(`${base}/pulls`, { title: 'Add feature', head: 'topic', base: 'main' });
  expect(pull.status).toBe(201);
  return { owner, reviewer, base, head: pull.body.head.sha as string };
}

const protect = (owner: Writer, base: string, rule: Record<string, unknown>) =>
  owner.client.post(`${base}/branch_protections`, { rule_name: 'main', enable_push: true, ...rule });

describe('reviewing a pull request', () => {
  it('keeps a pending review, submits it as an approval; a repository admin dismisses and restores it, a writer may not', async () => {
    const { owner, reviewer, base, head } = await pullWithReviewer();
    const pending = await reviewer.client.post(`${base}/pulls/1/reviews`, { body: 'Looking' });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ state: 'PENDING', commit_id: head, official: true, stale: false, dismissed: false, comments_count: 0 });
    expect(pending.body.pull_request_url).toMatch(/\/pulls\/1$/);

    const submitted = await reviewer.client.post(`${base}/pulls/1/reviews/${pending.body.id}`, { event: 'APPROVED', body: 'Looks good' });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ state: 'APPROVED', body: 'Looks good', user: { login: reviewer.username } });
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.review_approved');

    const list = await e2e.anonymous.get(`${base}/pulls/1/reviews`);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect((await e2e.anonymous.get(`${base}/pulls/1/reviews/${pending.body.id}/comments`)).body).toEqual([]);

    // Gitea's dismissReview: "Must be repo admin", whatever else the caller may do.
    const refused = await reviewer.client.post(`${base}/pulls/1/reviews/${pending.body.id}/dismissals`, { message: 'outdated' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Must be repo admin');
    const dismissed = await owner.client.post(`${base}/pulls/1/reviews/${pending.body.id}/dismissals`, { message: 'outdated' });
    expect(dismissed.body).toMatchObject({ dismissed: true });
    expect((await reviewer.client.post(`${base}/pulls/1/reviews/${pending.body.id}/undismissals`)).status).toBe(403);
    expect((await owner.client.post(`${base}/pulls/1/reviews/${pending.body.id}/undismissals`)).body).toMatchObject({ dismissed: false });
  });

  it('refuses approving or rejecting one\'s own pull, a comment without a body and a review of an unknown pull', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    const own = await owner.client.post(`${base}/pulls/1/reviews`, { event: 'APPROVED', body: 'Mine' });
    expect(own.status).toBe(422);
    expect(own.body.message).toBe('approve your own pull is not allowed');
    expect((await owner.client.post(`${base}/pulls/1/reviews`, { event: 'REQUEST_CHANGES', body: 'Mine' })).status).toBe(422);
    expect((await reviewer.client.post(`${base}/pulls/1/reviews`, { event: 'COMMENT' })).status).toBe(422);
    expect((await reviewer.client.post(`${base}/pulls/9/reviews`, { event: 'APPROVED' })).status).toBe(404);
    expect((await reviewer.client.get(`${base}/pulls/1/reviews`)).body).toEqual([]);
  });

  it('deletes a pending review', async () => {
    const { reviewer, base } = await pullWithReviewer();
    const pending = await reviewer.client.post(`${base}/pulls/1/reviews`, { body: 'draft' });
    expect((await reviewer.client.delete(`${base}/pulls/1/reviews/${pending.body.id}`)).status).toBe(204);
    expect((await reviewer.client.get(`${base}/pulls/1/reviews/${pending.body.id}`)).status).toBe(404);
  });
});

describe('commenting on lines of a pull request', () => {
  /** main has code.txt with lines a..h; the pull's topic drops line b and changes f. */
  async function pullChangingLines() {
    const { owner, reviewer, base } = await pullWithReviewer();
    const lines = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const made = await owner.client.post(`${base}/contents/code.txt`, { content: b64(lines.map((l) => `${l}\n`).join('')), message: 'Code' });
    expect(made.status).toBe(201);
    const changed = ['a', 'c', 'd', 'e', 'F', 'g', 'h'].map((l) => `${l}\n`).join('');
    expect((await owner.client.put(`${base}/contents/code.txt`, { content: b64(changed), sha: made.body.content.sha, new_branch: 'edit', message: 'Edit code' })).status).toBe(200);
    const pull = await owner.client.post(`${base}/pulls`, { title: 'Edit code', head: 'edit', base: 'main' });
    expect(pull.status).toBe(201);
    return { owner, reviewer, base, index: pull.body.number as number, head: pull.body.head.sha as string };
  }

  it('keeps comments on new and old lines with the diff around them', async () => {
    const { reviewer, base, index, head } = await pullChangingLines();
    const review = await reviewer.client.post(`${base}/pulls/${index}/reviews`, {
      event: 'COMMENT', comments: [
        { path: 'code.txt', new_position: 5, body: 'Why upper case?' },
        { path: 'code.txt', old_position: 2, body: 'Keep b' },
      ],
    });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({ state: 'COMMENT', comments_count: 2 });

    const comments = await reviewer.client.get(`${base}/pulls/${index}/reviews/${review.body.id}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.body).toHaveLength(2);
    expect(comments.body[0]).toMatchObject({
      path: 'code.txt', body: 'Why upper case?', position: 5, original_position: 0, commit_id: head, original_commit_id: head,
      pull_request_review_id: review.body.id, user: { login: reviewer.username }, resolver: null,
    });
    expect(comments.body[0].diff_hunk).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    expect(comments.body[0].diff_hunk.split('\n').at(-1)).toBe('+F');
    expect(comments.body[0].diff_hunk).toContain('-f');
    expect(comments.body[1]).toMatchObject({ path: 'code.txt', position: 0, original_position: 2 });
    expect(comments.body[1].diff_hunk.split('\n').at(-1)).toBe('-b');
    expect((await reviewer.client.get(`${base}/pulls/${index}/reviews/${review.body.id}`)).body.comments_count).toBe(2);
  });

  it('refuses malformed positions, a line the diff does not show and an unknown path with 422, creating nothing', async () => {
    const { reviewer, base, index } = await pullChangingLines();
    const bad = [
      { path: 'code.txt', body: 'no line' },
      { path: 'code.txt', new_position: 5, old_position: 2, body: 'both sides' },
      { path: 'code.txt', new_position: -3, body: 'negative' },
      { path: 'code.txt', new_position: 1.5, body: 'fraction' },
      { path: '', new_position: 1, body: 'no path' },
      { path: 'code.txt', new_position: 400, body: 'not in the diff' },
      { path: 'missing.txt', new_position: 1, body: 'no such file' },
    ];
    for (const comment of bad) {
      const refused = await reviewer.client.post(`${base}/pulls/${index}/reviews`, { event: 'COMMENT', body: 'x', comments: [comment] });
      expect(refused.status).toBe(422);
    }
    expect((await reviewer.client.get(`${base}/pulls/${index}/reviews`)).body).toEqual([]);
  });

  it('hides a pending review\'s comments from everyone but its reviewer', async () => {
    const { owner, reviewer, base, index } = await pullChangingLines();
    const pending = await reviewer.client.post(`${base}/pulls/${index}/reviews`, { comments: [{ path: 'code.txt', new_position: 5, body: 'Draft' }] });
    expect(pending.status).toBe(200);
    expect((await reviewer.client.get(`${base}/pulls/${index}/reviews/${pending.body.id}/comments`)).body).toHaveLength(1);
    expect((await owner.client.get(`${base}/pulls/${index}/reviews/${pending.body.id}/comments`)).status).toBe(404);
  });
});

describe('the reviews a pull request shows', () => {
  it('lists requested reviewers in the pull and in the pull list, and counts submitted reviews as review comments', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    const fresh = await owner.client.get(`${base}/pulls/1`);
    expect(fresh.body).toMatchObject({ requested_reviewers: [], requested_reviewers_teams: [], review_comments: 0 });

    expect((await owner.client.post(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(201);
    const asked = await owner.client.get(`${base}/pulls/1`);
    expect(asked.body.requested_reviewers).toEqual([expect.objectContaining({ login: reviewer.username })]);
    expect(asked.body.review_comments).toBe(0);
    const listed = await e2e.anonymous.get(`${base}/pulls?state=all`);
    expect(listed.body[0].requested_reviewers.map((u: { login: string }) => u.login)).toEqual([reviewer.username]);

    // A comment review keeps the request standing (Gitea counts approvals, rejections and requests only).
    expect((await reviewer.client.post(`${base}/pulls/1/reviews`, { event: 'COMMENT', body: 'a thought' })).status).toBe(200);
    expect((await owner.client.get(`${base}/pulls/1`)).body).toMatchObject({ review_comments: 1, requested_reviewers: [expect.objectContaining({ login: reviewer.username })] });
    // A pending review is not submitted: not counted.
    const pending = await reviewer.client.post(`${base}/pulls/1/reviews`, { body: 'later' });
    expect((await owner.client.get(`${base}/pulls/1`)).body.review_comments).toBe(1);
    const approved = await reviewer.client.post(`${base}/pulls/1/reviews/${pending.body.id}`, { event: 'APPROVED', body: 'fine' });
    expect(approved.status).toBe(200);
    expect((await owner.client.get(`${base}/pulls/1`)).body).toMatchObject({ review_comments: 2, requested_reviewers: [expect.objectContaining({ login: reviewer.username })] });

    // Dismissing the approval leaves the request as the reviewer's latest standing entry; withdrawing it empties the list.
    expect((await owner.client.post(`${base}/pulls/1/reviews/${pending.body.id}/dismissals`, { message: 'again' })).status).toBe(200);
    expect((await owner.client.delete(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(204);
    expect((await e2e.anonymous.get(`${base}/pulls?state=all`)).body[0]).toMatchObject({ requested_reviewers: [], review_comments: 2 });
  });
});

describe('asking for reviews', () => {
  it('lets the poster of a pull ask for and withdraw reviews without write access; another reader is refused as Gitea refuses', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    const poster = await e2e.newWriter({ scopes: SCOPES });
    const stranger = await e2e.newWriter({ scopes: SCOPES });
    expect((await poster.client.post(`/repos/${owner.username}/${base.split('/').pop()}/forks`, {})).status).toBe(202);
    const forkBase = `/repos/${poster.username}/${base.split('/').pop()}`;
    expect((await poster.client.post(`${forkBase}/contents/poster.txt`, { content: b64('mine\n'), new_branch: 'mine', message: 'Mine' })).status).toBe(201);
    const pull = await poster.client.post(`${base}/pulls`, { title: 'From a reader', head: `${poster.username}:mine`, base: 'main' });
    expect(pull.status).toBe(201);

    // Gitea's ErrNotValidReviewRequest: 422.
    const refused = await stranger.client.post(`${base}/pulls/${pull.body.number}/requested_reviewers`, { reviewers: [reviewer.username] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^Doer can't choose reviewer \[user_id: \d+, repo_id: \d+\]$/);
    expect((await poster.client.post(`${base}/pulls/${pull.body.number}/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(201);
    expect((await poster.client.delete(`${base}/pulls/${pull.body.number}/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(204);
  });

  it('lets a collaborator who may only read ask for and withdraw reviews, as Gitea does', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    const reader = await e2e.newWriter({ scopes: SCOPES });
    expect((await owner.client.put(`${base}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    const asked = await reader.client.post(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] });
    expect(asked.status).toBe(201);
    expect(asked.body).toEqual([expect.objectContaining({ state: 'REQUEST_REVIEW', user: expect.objectContaining({ login: reviewer.username }) })]);
    expect((await reader.client.delete(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(204);
    // Reading the repository is not enough without the collaborator grant.
    expect((await owner.client.delete(`${base}/collaborators/${reader.username}`)).status).toBe(204);
    const refused = await reader.client.post(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/^Doer can't choose reviewer/);
  });
});

describe('asking teams to review', () => {
  it('asks a team of the organization, shows it in the review, and withdraws the request', async () => {
    const owner = await e2e.newWriter({ scopes: [...SCOPES, 'write:organization', 'read:organization'] });
    const org = e2e.users.unique('rv-org-');
    expect((await owner.client.post('/orgs', { username: org })).status).toBe(201);
    const team = await owner.client.post(`/orgs/${org}/teams`, { name: 'Reviewers', permission: 'write', units: ['repo.code', 'repo.pulls'] });
    expect(team.status).toBe(201);
    const name = e2e.users.unique('rv-repo-');
    expect((await owner.client.post(`/orgs/${org}/repos`, { name, auto_init: true })).status).toBe(201);
    const base = `/repos/${org}/${name}`;
    expect((await owner.client.post(`${base}/contents/feature.txt`, { content: b64('one\n'), new_branch: 'topic', message: 'Add feature' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls`, { title: 'Feature', head: 'topic', base: 'main' })).status).toBe(201);

    expect((await owner.client.post(`${base}/pulls/1/requested_reviewers`, { team_reviewers: ['nobody'] })).status).toBe(404);
    const asked = await owner.client.post(`${base}/pulls/1/requested_reviewers`, { team_reviewers: ['reviewers'] });
    expect(asked.status).toBe(201);
    expect(asked.body).toEqual([expect.objectContaining({ state: 'REQUEST_REVIEW', user: null, official: true, team: expect.objectContaining({ id: team.body.id, name: 'Reviewers' }) })]);
    // Asking again adds nothing.
    expect((await owner.client.post(`${base}/pulls/1/requested_reviewers`, { team_reviewers: ['Reviewers'] })).body).toEqual([]);
    expect((await owner.client.get(`${base}/pulls/1/reviews`)).body.map((r: { team: { name: string } | null }) => r.team?.name)).toEqual(['Reviewers']);
    // The pull shows the team among its requested reviewers, alone and in the list.
    expect((await owner.client.get(`${base}/pulls/1`)).body.requested_reviewers_teams).toEqual([expect.objectContaining({ id: team.body.id, name: 'Reviewers' })]);
    expect((await owner.client.get(`${base}/pulls`)).body[0].requested_reviewers_teams.map((t: { name: string }) => t.name)).toEqual(['Reviewers']);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.review_requested' && JSON.stringify(e.payload).includes(name));

    expect((await owner.client.delete(`${base}/pulls/1/requested_reviewers`, { team_reviewers: ['Reviewers'] })).status).toBe(204);
    expect((await owner.client.get(`${base}/pulls/1/reviews`)).body).toEqual([]);
    expect((await owner.client.get(`${base}/pulls/1`)).body.requested_reviewers_teams).toEqual([]);
  });
});

describe('merge rules from branch protection', () => {
  it('requires approvals, and counts an official one', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    expect((await protect(owner, base, { required_approvals: 1 })).status).toBe(201);
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Does not have enough approvals');
    expect((await reviewer.client.post(`${base}/pulls/1/reviews`, { event: 'APPROVED', body: 'ok' })).status).toBe(200);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
  });

  it('blocks on requested changes', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    expect((await protect(owner, base, { block_on_rejected_reviews: true })).status).toBe(201);
    expect((await reviewer.client.post(`${base}/pulls/1/reviews`, { event: 'REQUEST_CHANGES', body: 'not yet' })).status).toBe(200);
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('There are requested changes');
  });

  it('does not count an approval made stale by a push when stale approvals are dismissed', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    expect((await protect(owner, base, { required_approvals: 1, dismiss_stale_approvals: true })).status).toBe(201);
    expect((await reviewer.client.post(`${base}/pulls/1/reviews`, { event: 'APPROVED', body: 'ok' })).status).toBe(200);
    const more = await owner.client.post(`${base}/contents/more.txt`, { content: b64('more\n'), branch: 'topic', message: 'More' });
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.synchronized' && e.payload.pull_request?.head_sha === more.body.commit.sha);
    const reviews = await owner.client.get(`${base}/pulls/1/reviews`);
    expect(reviews.body[0]).toMatchObject({ state: 'APPROVED', stale: true });
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Does not have enough approvals');
  });

  it('requires the status checks to succeed on the head', async () => {
    const { owner, base, head } = await pullWithReviewer();
    expect((await protect(owner, base, { enable_status_check: true, status_check_contexts: ['ci/*'] })).status).toBe(201);
    expect((await owner.client.post(`${base}/statuses/${head}`, { state: 'pending', context: 'ci/build' })).status).toBe(201);
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('Not all required status checks successful');
    expect((await owner.client.post(`${base}/statuses/${head}`, { state: 'success', context: 'ci/build' })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
  });

  it('blocks on official review requests until they are answered or withdrawn', async () => {
    const { owner, reviewer, base } = await pullWithReviewer();
    expect((await protect(owner, base, { block_on_official_review_requests: true })).status).toBe(201);
    const requested = await owner.client.post(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] });
    expect(requested.status).toBe(201);
    expect(requested.body).toEqual([expect.objectContaining({ state: 'REQUEST_REVIEW', user: expect.objectContaining({ login: reviewer.username }) })]);
    await e2e.recorder.eventMatching((e) => e.subject === 'collaboration.pull_request.review_requested');
    const refused = await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' });
    expect(refused.status).toBe(405);
    expect(refused.body.message).toBe('There are official review requests');
    expect((await owner.client.post(`${base}/pulls/1/requested_reviewers`, { reviewers: ['no-such-user'] })).status).toBe(404);
    expect((await owner.client.delete(`${base}/pulls/1/requested_reviewers`, { reviewers: [reviewer.username] })).status).toBe(204);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge' })).status).toBe(200);
  });

  it('lets an admin force the merge past the rules unless the rule blocks the override', async () => {
    const { owner, base } = await pullWithReviewer();
    expect((await protect(owner, base, { required_approvals: 1, block_admin_merge_override: true })).status).toBe(201);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge', force_merge: true })).status).toBe(405);
    expect((await owner.client.patch(`${base}/branch_protections/main`, { block_admin_merge_override: false })).status).toBe(200);
    expect((await owner.client.post(`${base}/pulls/1/merge`, { do: 'merge', force_merge: true })).status).toBe(200);
  });
});
