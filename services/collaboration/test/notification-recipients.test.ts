// Which collaboration events make notification threads, and for whom (the rule of
// domain/notification-recipients.ts, after Gitea's services/uinotification/notify.go).
import { describe, expect, it } from '@jest/globals';
import { notifyFactsOf } from '../src/domain/notification-recipients.js';

const issue = { id: 5, repository_id: 2, is_pull: false };
const sender = { id: 9 };

describe('notification recipients', () => {
  it('tell the watchers when an issue is opened, edited, closed or reopened, naming the actor to leave out', () => {
    for (const action of ['opened', 'edited', 'closed', 'reopened']) {
      expect(notifyFactsOf(`collaboration.issue.${action}`, { issue, sender })).toEqual([{
        issueId: 5, repositoryId: 2, source: 'issue', actorId: 9, commentId: 0, recipients: 'watchers',
      }]);
    }
  });

  it('tell only the assignee about an assignment', () => {
    expect(notifyFactsOf('collaboration.issue.assigned', { issue, sender, assignee: { id: 4 } }))
      .toMatchObject([{ recipients: 'user', userId: 4, actorId: 9 }]);
  });

  it('say nothing of label, milestone and unassignment changes, nor of edited or deleted comments', () => {
    for (const subject of ['collaboration.issue.label_updated', 'collaboration.issue.milestoned', 'collaboration.issue.unassigned',
      'collaboration.issue_comment.edited', 'collaboration.issue_comment.deleted', 'collaboration.repo_watch.started']) {
      expect(notifyFactsOf(subject, { issue, sender })).toEqual([]);
    }
  });

  it('carry the new comment and the pull request kind', () => {
    expect(notifyFactsOf('collaboration.issue_comment.created', { issue: { ...issue, is_pull: true }, sender, comment: { id: 31 } }))
      .toMatchObject([{ source: 'pull', commentId: 31, recipients: 'watchers' }]);
    expect(notifyFactsOf('collaboration.pull_request.opened', { pull_request: { issue }, sender })).toMatchObject([{ source: 'pull', issueId: 5 }]);
  });

  it('tell only the reviewer just asked about a review request', () => {
    expect(notifyFactsOf('collaboration.pull_request.review_requested', { pull_request: { issue }, sender, requested_reviewer: { id: 7 } }))
      .toMatchObject([{ source: 'pull', recipients: 'user', userId: 7, actorId: 9 }]);
  });

  it('tell each member of a team asked to review but the pull\'s poster, and no one for a team without members', () => {
    const pull = { issue: { ...issue, user: { id: 3 } } };
    const told = notifyFactsOf('collaboration.pull_request.review_requested', { pull_request: pull, sender, requested_team_member_ids: [3, 7, 8] });
    expect(told.map((f) => [f.recipients, f.userId])).toEqual([['user', 7], ['user', 8]]);
    expect(notifyFactsOf('collaboration.pull_request.review_requested', { pull_request: pull, sender, requested_team_member_ids: [] })).toEqual([]);
  });

  it('ignore an event without its issue', () => {
    expect(notifyFactsOf('collaboration.issue.opened', { sender })).toEqual([]);
  });
});
