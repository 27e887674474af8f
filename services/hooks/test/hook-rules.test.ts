// The pure rules of webhooks: event choices, retry decisions, branch filters.
import { describe, expect, it } from '@jest/globals';
import { outcomeOf, retryDelayMs, type Attempt } from '../src/domain/deliveries.js';
import { branchFilterMatches } from '../src/domain/glob.js';
import { chosenEvents, coarseEvent } from '../src/domain/hook-events.js';

const attempt = (responseStatus: number, error = ''): Attempt => ({
  requestUrl: '', requestHeaders: {}, responseStatus, responseHeaders: {}, responseBody: '', error, refused: false, durationMs: 1,
});
const policy = { maxAttempts: 3, backoffMs: 1000 };
const now = new Date(0);

describe('webhook events', () => {
  it('defaults to push and expands the coarse choices', () => {
    expect(chosenEvents([])).toEqual(['push']);
    expect(chosenEvents(['issues'])).toEqual(['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
    expect(chosenEvents(['issues_only', 'push'])).toEqual(['push', 'issues']);
    expect(chosenEvents(['pull_request_review'])).toEqual(['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment']);
  });

  it('sends the coarse name Gitea sends in X-Gitea-Event', () => {
    expect(coarseEvent('issue_label')).toBe('issues');
    expect(coarseEvent('pull_request_comment')).toBe('issue_comment');
    expect(coarseEvent('pull_request_review_approved')).toBe('pull_request_approved');
  });
});

describe('delivery retries', () => {
  it('delivers on 2xx, fails at once on 4xx, retries 5xx and no answer until the attempts run out', () => {
    expect(outcomeOf(attempt(204), 1, policy, now)).toEqual({ status: 'delivered' });
    expect(outcomeOf(attempt(404), 1, policy, now)).toEqual({ status: 'failed' });
    expect(outcomeOf(attempt(502), 1, policy, now, () => 0)).toEqual({ status: 'pending', retryAt: new Date(500) });
    expect(outcomeOf(attempt(0, 'timeout'), 2, policy, now, () => 1)).toEqual({ status: 'pending', retryAt: new Date(2000) });
    expect(outcomeOf(attempt(500), 3, policy, now)).toEqual({ status: 'failed' });
    expect(outcomeOf({ ...attempt(0, 'refused'), refused: true }, 1, policy, now)).toEqual({ status: 'failed' });
  });

  it('doubles the wait with each attempt, half of it random', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 100, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 100, () => 1))).toEqual([100, 200, 400, 800]);
  });
});

describe('branch filters', () => {
  it('match as Gitea\'s gobwas globs, `*` crossing `/`', () => {
    expect(branchFilterMatches('', 'anything')).toBe(true);
    expect(branchFilterMatches('{main,release/*}', 'release/1.0')).toBe(true);
    expect(branchFilterMatches('{main,release/*}', 'feature')).toBe(false);
    expect(branchFilterMatches('feat*', 'feature/x')).toBe(true);
  });
});
