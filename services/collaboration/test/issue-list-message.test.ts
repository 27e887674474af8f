// A page of issues goes to the gateway with each user once (collaboration.proto IssueList):
// a whole User per issue made the page several times dearer to encode, decode and present.
import { describe, expect, it } from '@jest/globals';
import type { Issue } from '../src/domain/issue-store.js';
import { issueListMessage } from '../src/grpc/messages.js';

const ada = { id: 7, login: 'ada' };
const bob = { id: 8, login: 'bob' };
const at = new Date('2026-11-25T12:00:00Z');
const issue = (index: number, poster: typeof ada | undefined, assignees: Array<typeof ada>): Issue => ({
  id: index, repositoryId: 1, index, posterId: poster?.id ?? 99, poster, title: `Issue ${index}`, body: '', isClosed: false, isPull: false, isLocked: false,
  labels: [], assignees, comments: 0, createdAt: at, updatedAt: at, pinOrder: 0, ref: '', contentVersion: 0,
});

describe('an issue list message', () => {
  it('sends each poster and assignee once and names them by id on the issues', () => {
    const message = issueListMessage([issue(3, ada, [bob]), issue(2, ada, [ada]), issue(1, undefined, [])], 3);
    expect(message.users?.map((u) => u.login)).toEqual(['ada', 'bob']);
    expect(message.issues?.map((i) => i.user)).toEqual([{ id: 7 }, { id: 7 }, undefined]);
    expect(message.issues?.map((i) => i.assignees)).toEqual([[{ id: 8 }], [{ id: 7 }], []]);
    expect(message.total).toBe(3);
  });
});
