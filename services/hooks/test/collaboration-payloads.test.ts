// Issues, comments, pull requests and reviews as webhooks: which event each of
// collaboration's events fires (an issue change on a pull fires the pull_request_* event),
// the payload's fields as Gitea's structs have them (IssuePayload, IssueCommentPayload,
// PullRequestPayload), and what Slack, Discord and Teams are told.
import { describe, expect, it } from '@jest/globals';
import { coarseEvent, type HookEvent } from '../src/domain/hook-events.js';
import { HOOK_EVENT_KINDS, hookEventOf } from '../src/events/hook-event-kinds.js';
import { deliveryBody } from '../src/payloads/body.js';

const ROOT = 'https://forge.example/';
const when = { seconds: 1_700_000_000, nanos: 0 };
const repository = { id: 3, owner_id: 7, owner_login: 'ada', name: 'app', default_branch: 'main', created_at: when, updated_at: when };
const ada = { id: 7, login: 'ada', full_name: 'Ada', email: 'ada@example.com', visibility: 'VISIBILITY_PUBLIC' };
const bob = { id: 8, login: 'bob', full_name: 'Bob', email: 'bob@example.com', visibility: 'VISIBILITY_PUBLIC' };
const label = { id: 11, name: 'bug', color: '#ee0701', description: '', exclusive: false, is_archived: false, repository_id: 3, org_id: 0 };
const milestone = { id: 5, title: 'v1', description: '', state: 'open', open_issues: 1, closed_issues: 0, created_at: when };

function issue(isPull = false) {
  return {
    id: 40, index: 4, repository_id: 3, user: ada, title: 'It breaks', body: 'Steps to reproduce', state: 'open', is_locked: false,
    is_pull: isPull, labels: [label], milestone, assignees: [bob], comments: 1, created_at: when, updated_at: when, pin_order: 0, ref: '', content_version: 1,
  };
}

function pull() {
  return {
    issue: issue(true), base_branch: 'main', head_branch: 'fix', head_repo_id: 3, head_sha: 'a'.repeat(40), merge_base: 'b'.repeat(40),
    status: 'mergeable', conflicted_files: [], additions: 3, deletions: 1, changed_files: 2, has_merged: false, merge_commit_sha: '',
  };
}

const comment = (isPull = false) => ({ id: 90, issue_id: 40, issue_index: 4, is_pull: isPull, user: bob, type: 'comment', body: 'Me too', created_at: when, updated_at: when });

/** What a hook of type `gitea` receives for an event published on `subject`. */
function fire(subject: string, payload: object): { event: HookEvent | undefined; body: Record<string, any> } {
  const kind = HOOK_EVENT_KINDS[subject];
  expect(kind).toBeDefined();
  const event = hookEventOf(kind, payload);
  return { event, body: kind.build(payload, ROOT) };
}

const ISSUE_PAYLOAD_FIELDS = ['action', 'commit_id', 'issue', 'number', 'repository', 'sender'];
const PULL_PAYLOAD_FIELDS = ['action', 'commit_id', 'number', 'pull_request', 'repository', 'requested_reviewer', 'review', 'sender'];
const COMMENT_PAYLOAD_FIELDS = ['action', 'comment', 'is_pull', 'issue', 'repository', 'sender'];

describe('issue events', () => {
  it.each([
    ['opened', 'issues'], ['edited', 'issues'], ['closed', 'issues'], ['reopened', 'issues'], ['deleted', 'issues'],
    ['assigned', 'issue_assign'], ['unassigned', 'issue_assign'], ['label_updated', 'issue_label'], ['label_cleared', 'issue_label'],
    ['milestoned', 'issue_milestone'], ['demilestoned', 'issue_milestone'],
  ])('an issue %s fires %s with Gitea\'s IssuePayload', (action, expected) => {
    const { event, body } = fire(`collaboration.issue.${action}`, { action, issue: issue(), repository, sender: ada });
    expect(event).toBe(expected);
    expect(coarseEvent(event!)).toBe('issues');
    expect(Object.keys(body).sort()).toEqual(ISSUE_PAYLOAD_FIELDS);
    expect(body).toMatchObject({
      action, number: 4, commit_id: '',
      issue: {
        id: 40, number: 4, title: 'It breaks', body: 'Steps to reproduce', state: 'open', html_url: `${ROOT}ada/app/issues/4`,
        url: `${ROOT}api/v1/repos/ada/app/issues/4`, user: { login: 'ada' }, labels: [{ id: 11, name: 'bug', color: 'ee0701' }],
        milestone: { id: 5, title: 'v1' }, assignee: { login: 'bob' }, assignees: [{ login: 'bob' }], pull_request: null,
        repository: { id: 3, full_name: 'ada/app' },
      },
      repository: { id: 3, full_name: 'ada/app', html_url: `${ROOT}ada/app` }, sender: { id: 7, login: 'ada', username: 'ada' },
    });
    // Webhooks see users as no one in particular does: no e-mail address leaks.
    expect(JSON.stringify(body)).not.toContain('ada@example.com');
  });

  it('an edit says what the title and body were (Gitea\'s changes)', () => {
    const { body } = fire('collaboration.issue.edited', { action: 'edited', issue: issue(), repository, sender: ada, changes: { title_from: 'Old title' } });
    expect(body.changes).toEqual({ title: { from: 'Old title' } });
    expect(fire('collaboration.issue.opened', { action: 'opened', issue: issue(), repository, sender: ada }).body).not.toHaveProperty('changes');
  });

  it.each([
    ['opened', 'pull_request'], ['closed', 'pull_request'], ['assigned', 'pull_request_assign'], ['label_updated', 'pull_request_label'],
    ['milestoned', 'pull_request_milestone'],
  ])('the same change %s on a pull request fires %s with the pull\'s payload', (action, expected) => {
    const { event, body } = fire(`collaboration.issue.${action}`, { action, issue: issue(true), pull_request: pull(), repository, sender: ada });
    expect(event).toBe(expected);
    expect(coarseEvent(event!)).toBe('pull_request');
    expect(Object.keys(body).sort()).toEqual(PULL_PAYLOAD_FIELDS);
    expect(body).toMatchObject({ action, number: 4, pull_request: { number: 4, labels: [{ name: 'bug' }], base: { ref: 'main' }, head: { ref: 'fix', sha: 'a'.repeat(40) } } });
  });
});

describe('comment events', () => {
  it.each(['created', 'edited', 'deleted'])('a comment %s on an issue fires issue_comment with Gitea\'s IssueCommentPayload', (action) => {
    const { event, body } = fire(`collaboration.issue_comment.${action}`, {
      action, comment: comment(), issue: issue(), repository, sender: bob, ...(action === 'edited' ? { changes: { body_from: 'Me' } } : {}),
    });
    expect(event).toBe('issue_comment');
    expect(Object.keys(body).sort()).toEqual(action === 'edited' ? [...COMMENT_PAYLOAD_FIELDS, 'changes'].sort() : COMMENT_PAYLOAD_FIELDS);
    expect(body).toMatchObject({
      action, is_pull: false, issue: { number: 4 },
      comment: { id: 90, body: 'Me too', user: { login: 'bob' }, html_url: `${ROOT}ada/app/issues/4#issuecomment-90`, issue_url: `${ROOT}ada/app/issues/4` },
    });
    if (action === 'edited') expect(body.changes).toEqual({ body: { from: 'Me' } });
  });

  it('a comment on a pull request fires pull_request_comment, with the pull\'s meta on its issue', () => {
    const { event, body } = fire('collaboration.issue_comment.created', { action: 'created', comment: comment(true), issue: issue(true), pull_request: pull(), repository, sender: bob });
    expect(event).toBe('pull_request_comment');
    expect(coarseEvent(event!)).toBe('issue_comment');
    expect(body).toMatchObject({ is_pull: true, issue: { pull_request: { merged: false, merged_at: null, html_url: `${ROOT}ada/app/pulls/4` } } });
  });
});

describe('pull request events', () => {
  it.each([
    ['opened', 'pull_request', 'opened'], ['edited', 'pull_request', 'edited'], ['closed', 'pull_request', 'closed'],
    ['reopened', 'pull_request', 'reopened'], ['synchronized', 'pull_request_sync', 'synchronized'],
  ])('a pull %s fires %s with Gitea\'s PullRequestPayload', (action, expected, payloadAction) => {
    const { event, body } = fire(`collaboration.pull_request.${action}`, { action, pull_request: pull(), repository, sender: ada });
    expect(event).toBe(expected);
    expect(Object.keys(body).sort()).toEqual(PULL_PAYLOAD_FIELDS);
    expect(body).toMatchObject({
      action: payloadAction, number: 4, requested_reviewer: null, review: null,
      pull_request: {
        id: 40, number: 4, title: 'It breaks', state: 'open', html_url: `${ROOT}ada/app/pulls/4`, diff_url: `${ROOT}ada/app/pulls/4.diff`,
        mergeable: true, merged: false, additions: 3, deletions: 1, changed_files: 2,
        base: { ref: 'main', repo_id: 3, repo: { full_name: 'ada/app' } }, head: { ref: 'fix', sha: 'a'.repeat(40) }, merge_base: 'b'.repeat(40),
      },
    });
  });

  it.each([
    ['review_approved', 'pull_request_review_approved', 'pull_request_approved'],
    ['review_rejected', 'pull_request_review_rejected', 'pull_request_rejected'],
    ['review_comment', 'pull_request_review_comment', 'pull_request_comment'],
  ])('a review (%s) fires %s (X-Gitea-Event %s) with the review', (action, expected, coarse) => {
    const review = { type: expected, content: 'Looks good' };
    const { event, body } = fire(`collaboration.pull_request.${action}`, { action, pull_request: pull(), repository, sender: bob, review });
    expect(event).toBe(expected);
    expect(coarseEvent(event!)).toBe(coarse);
    expect(body).toMatchObject({ action: 'reviewed', review, sender: { login: 'bob' } });
  });

  it.each(['review_requested', 'review_request_removed'])('a %s fires pull_request_review_request naming the reviewer', (action) => {
    const { event, body } = fire(`collaboration.pull_request.${action}`, { action, pull_request: pull(), repository, sender: ada, requested_reviewer: bob });
    expect(event).toBe('pull_request_review_request');
    expect(body).toMatchObject({ action, requested_reviewer: { id: 8, login: 'bob' } });
  });

  it('a dismissed review fires nothing, as in Gitea', () => {
    expect(HOOK_EVENT_KINDS['collaboration.pull_request.review_dismissed']).toBeUndefined();
  });
});

describe('chat messages', () => {
  const issueOpened = fire('collaboration.issue.opened', { action: 'opened', issue: issue(), repository, sender: ada }).body;
  const slackMeta = { channel: '#dev', username: 'anvil', icon_url: '', color: '' };

  it('Slack, Discord and Teams read the issue payload as built: its line, body, links and sender', () => {
    const slack = JSON.parse(deliveryBody({ type: 'slack', contentType: 'json', meta: slackMeta }, 'issues', issueOpened));
    expect(slack.text).toBe(`[<${ROOT}ada/app|ada/app>] Issue opened: <${ROOT}ada/app/issues/4|#4 It breaks> by <${ROOT}ada|ada>`);
    expect(slack.attachments[0]).toMatchObject({ text: 'Steps to reproduce', title_link: `${ROOT}ada/app/issues/4` });
    const discord = JSON.parse(deliveryBody({ type: 'discord', contentType: 'json', meta: {} }, 'issues', issueOpened));
    expect(discord.embeds[0]).toMatchObject({ title: '[ada/app] Issue opened: #4 It breaks', description: 'Steps to reproduce', url: `${ROOT}ada/app/issues/4`, author: { name: 'ada' } });
    const teams = JSON.parse(deliveryBody({ type: 'msteams', contentType: 'json', meta: {} }, 'issues', issueOpened));
    expect(teams).toMatchObject({ '@type': 'MessageCard', title: '[ada/app] Issue opened: #4 It breaks', sections: [{ text: 'Steps to reproduce', activityTitle: 'Ada' }] });
  });

  it.each([
    ['collaboration.pull_request.opened', { action: 'opened', pull_request: pull(), repository, sender: ada }, '[ada/app] Pull request opened: #4 It breaks'],
    ['collaboration.pull_request.review_approved', { action: 'review_approved', pull_request: pull(), repository, sender: bob, review: { type: 'pull_request_review_approved', content: 'LGTM' } }, '[ada/app] Pull request review approved: #4 It breaks'],
    ['collaboration.issue_comment.created', { action: 'created', comment: comment(), issue: issue(), repository, sender: bob }, '[ada/app] New comment on issue #4 It breaks'],
    ['collaboration.issue.assigned', { action: 'assigned', issue: issue(), repository, sender: ada }, '[ada/app] Issue assigned to bob: #4 It breaks'],
    ['collaboration.issue.label_updated', { action: 'label_updated', issue: issue(true), pull_request: pull(), repository, sender: ada }, '[ada/app] Pull request labels updated: #4 It breaks'],
  ])('%s is titled in Discord as Gitea titles it', (subject, payload, title) => {
    const { event, body } = fire(subject, payload);
    const discord = JSON.parse(deliveryBody({ type: 'discord', contentType: 'json', meta: {} }, event!, body));
    expect(discord.embeds[0].title).toBe(title);
  });
});
