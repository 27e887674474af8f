// An issue list names each user once (collaboration.proto IssueList): the gateway puts the
// users back on the issues and presents each of them once per page.
import { describe, expect, it } from '@jest/globals';
import type { collaboration, identity } from '@anvil/proto';
import { issuesOf, presentIssue, type ShownUsers } from '../src/issue.js';

const ada = { id: 7, login: 'ada', full_name: 'Ada', email: 'ada@example.com', visibility: 'VISIBILITY_PUBLIC' } as identity.User;
const bob = { id: 8, login: 'bob', full_name: 'Bob', email: 'bob@example.com', visibility: 'VISIBILITY_PUBLIC' } as identity.User;
const issue = (index: number, user: identity.User | null, assignees: identity.User[]) => ({
  id: index, index, repository_id: 1, user, title: `Issue ${index}`, body: '', state: 'open', is_locked: false, is_pull: false,
  labels: [], milestone: null, assignees, comments: 0, created_at: { seconds: 0, nanos: 0 }, updated_at: { seconds: 0, nanos: 0 },
  closed_at: null, due_date: null, pin_order: 0, ref: '', content_version: 0,
}) as unknown as collaboration.Issue;
const ref = (u: identity.User) => ({ id: u.id }) as identity.User;

describe('an issue list', () => {
  it('gives each issue its poster and assignees from the users the list sends once', () => {
    const list = { issues: [issue(2, ref(ada), [ref(bob)]), issue(1, ref(ada), [])], total: 2, users: [ada, bob] } as unknown as collaboration.IssueList;
    const [second, first] = issuesOf(list);
    expect(second.user?.login).toBe('ada');
    expect(second.assignees.map((u) => u.login)).toEqual(['bob']);
    expect(first.user?.login).toBe('ada');
  });

  it('shows a deleted poster as the ghost user', () => {
    const [only] = issuesOf({ issues: [issue(1, null, [])], total: 1, users: [] } as unknown as collaboration.IssueList);
    const caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: [] } as never;
    expect(presentIssue(only, { id: 1, owner: 'ada', name: 'r' }, caller, 'http://x/').user.login).toBe('Ghost');
  });

  it('presents a user who posted several issues of the page once', () => {
    const caller = { userId: 0, login: '', isAdmin: false, restricted: false, scopes: [] } as never;
    const shown: ShownUsers = new Map();
    const issues = issuesOf({ issues: [issue(2, ref(ada), []), issue(1, ref(ada), [])], total: 2, users: [ada] } as unknown as collaboration.IssueList);
    const [a, b] = issues.map((i) => presentIssue(i, { id: 1, owner: 'ada', name: 'r' }, caller, 'http://x/', shown));
    expect(a.user).toBe(b.user);
    expect(a.user.email).toBe('ada@noreply.x');
  });
});
