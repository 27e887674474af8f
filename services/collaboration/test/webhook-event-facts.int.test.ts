// What collaboration's events carry for webhooks, so the hooks service never calls back: a
// change made through the issue of a pull request carries the pull (pull_request_label,
// _assign, _milestone payloads are the pull's), a comment on a pull carries it too, a review
// carries its verdict and body (Gitea's `review`), and a review request names the reviewer
// (`requested_reviewer`), also when it is withdrawn. Each carries the sender's permission and
// a fork's parent as the gateway resolved them (the payload's repository shows them).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { type Caller } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createComment } from '../src/domain/comments.js';
import { editIssue } from '../src/domain/issues.js';
import { createPull } from '../src/domain/pulls.js';
import { cancelReviewRequests, createReview, requestReviews, TEAM_MEMBERS_NOTIFIED_MAX, type ReviewDeps } from '../src/domain/reviews.js';
import type { CommentDeps } from '../src/domain/comments.js';
import { commentStore } from '../src/store/comments.js';
import { createDb, type CollaborationDb } from '../src/store/db.js';
import { issueStore } from '../src/store/issues.js';
import { pullStore } from '../src/store/pulls.js';
import { reviewStore } from '../src/store/reviews.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';
import { ada, adaScope } from './support/scope.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: CollaborationDb;
let deps: ReviewDeps & CommentDeps;

const bob: Caller = { userId: 8, login: 'bob', isAdmin: false, restricted: false, scopes: ['all'] };
const carol: Caller = { userId: 9, login: 'carol', isAdmin: false, restricted: false, scopes: ['all'] };

const scope = adaScope;

const facts = { headSha: 'a'.repeat(40), mergeBase: 'b'.repeat(40), mergeable: true, conflictedFiles: [], additions: 3, deletions: 1, changedFiles: 2 };

/** The decoded events written so far on `subject`. */
async function eventsOn(subject: string): Promise<Array<Record<string, any>>> {
  const rows = await db.outboxEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return rows.map((r) => decodeEvent(r.type, r.payload) as Record<string, any>);
}

beforeAll(async () => {
  database = await testDatabase(`anvil_collaboration_hook_facts_test_${newRunId()}`, MIGRATIONS_DIR);
  db = createDb(database.url);
  deps = { issues: issueStore(db), pulls: pullStore(db), reviews: reviewStore(db), comments: commentStore(db) };
  for (const user of [ada, bob, carol]) {
    await db.user.create({ data: { id: BigInt(user.userId), login: user.login, lower_name: user.login, profile: { id: user.userId, login: user.login, full_name: user.login.toUpperCase() } } });
  }
  await createPull(deps, scope(1), ada, { title: 'Fix it', body: 'A fix', baseBranch: 'main', headBranch: 'fix', facts, assignees: [], labels: [], milestone: 0 });
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('events for webhooks', () => {
  it('an edit through the issue of a pull request carries the pull', async () => {
    await editIssue(deps, scope(1), ada, 1, { title: 'Fix it properly' });
    const [edited] = await eventsOn('collaboration.issue.edited');
    expect(edited).toMatchObject({
      action: 'edited', issue: { is_pull: true, title: 'Fix it properly' }, changes: { title_from: 'Fix it' },
      pull_request: { base_branch: 'main', head_branch: 'fix', head_sha: 'a'.repeat(40), issue: { index: 1 } },
    });
  });

  it('carries the sender\'s permission and a fork\'s parent with its owner, as the gateway resolved them', async () => {
    const parent = { repository: { id: 99, owner_id: 8, owner_login: 'bob', name: 'upstream' }, owner: { id: 8, login: 'bob', full_name: 'BOB' }, permission: '' };
    const inFork = { ...scope(2), permission: 'write', parent } as ReturnType<typeof scope>;
    await createComment(deps, scope(1), ada, 1, 'From the owner');
    const [commented] = await eventsOn('collaboration.issue_comment.created');
    expect(commented).toMatchObject({ sender_permission: 'owner' });
    expect(commented.repository_parent ?? null).toBeNull();
    await createPull(deps, inFork, ada, { title: 'In a fork', body: '', baseBranch: 'main', headBranch: 'topic', facts, assignees: [], labels: [], milestone: 0 });
    const opened = (await eventsOn('collaboration.pull_request.opened')).find((e) => Number(e.repository.id) === 2);
    expect(opened).toMatchObject({ sender_permission: 'write', repository_parent: { repository: { id: 99, name: 'upstream' }, owner: { login: 'bob', full_name: 'BOB' } } });
  });

  it('a comment on a pull request carries the pull', async () => {
    await createComment(deps, scope(1), bob, 1, 'Nice');
    const created = (await eventsOn('collaboration.issue_comment.created')).find((e) => e.comment.body === 'Nice');
    expect(created).toMatchObject({ action: 'created', comment: { body: 'Nice', is_pull: true }, pull_request: { head_branch: 'fix' } });
  });

  it('a review carries its verdict and body', async () => {
    await createReview(deps, scope(1), bob, 1, { event: 'APPROVED', body: 'Looks good', commitId: '' });
    const [approved] = await eventsOn('collaboration.pull_request.review_approved');
    expect(approved).toMatchObject({ action: 'review_approved', review: { type: 'pull_request_review_approved', content: 'Looks good' }, sender: { login: 'bob' } });
  });

  it('a review request, and its withdrawal, name the reviewer', async () => {
    await requestReviews(deps, scope(1), ada, 1, ['carol']);
    await cancelReviewRequests(deps, scope(1), ada, 1, ['carol']);
    const [requested] = await eventsOn('collaboration.pull_request.review_requested');
    const [removed] = await eventsOn('collaboration.pull_request.review_request_removed');
    expect(requested).toMatchObject({ action: 'review_requested', requested_reviewer: { id: 9, login: 'carol' } });
    expect(removed).toMatchObject({ action: 'review_request_removed', requested_reviewer: { id: 9, login: 'carol' } });
  });

  it('a team\'s review request names its members, as many as an event may carry', async () => {
    const orgScope = (id: number) => ({
      ...scope(id),
      repository: { ...scope(id).repository, owner_id: 70, owner_login: 'acme' },
      owner: { id: 70, login: 'acme', type: 'organization' },
    }) as ReturnType<typeof scope>;
    const pull = await createPull(deps, orgScope(2), ada, { title: 'Team work', body: '', baseBranch: 'main', headBranch: 'team', facts, assignees: [], labels: [], milestone: 0 });
    const members = Array.from({ length: TEAM_MEMBERS_NOTIFIED_MAX + 5 }, (_, i) => 1000 + i);
    await requestReviews(deps, orgScope(2), ada, pull.issue.index, [], [{ id: 500, name: 'Reviewers', org_id: 70 }], new Map([[500, members]]));
    const requested = (await eventsOn('collaboration.pull_request.review_requested')).at(-1);
    expect(requested!.requested_reviewer).toBeFalsy();
    expect(requested!.requested_team_member_ids).toEqual(members.slice(0, TEAM_MEMBERS_NOTIFIED_MAX));
  });
});
