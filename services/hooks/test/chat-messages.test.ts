// What Slack, Discord and Teams hooks are sent, in the words, links, colours and layout of
// Gitea's own chat messages (its services/webhook slack.go, discord.go, msteams.go and
// general.go), from Gitea-shaped payloads.
import { describe, expect, it } from '@jest/globals';
import type { HookEvent } from '../src/domain/hook-events.js';
import { HOOK_EVENT_KINDS, hookEventOf } from '../src/events/hook-event-kinds.js';
import { deliveryBody, hasDeliveryBody } from '../src/payloads/body.js';

const SITE = 'https://forge.example/';
const repository = { id: 3, full_name: 'ada/app', html_url: `${SITE}ada/app` };
const ada = { id: 7, login: 'ada', full_name: 'Ada Lovelace', html_url: `${SITE}ada`, avatar_url: `${SITE}avatars/7` };
const bob = { id: 8, login: 'bob', full_name: 'Bob', html_url: `${SITE}bob`, avatar_url: `${SITE}avatars/8` };
const commit = (id: string, message: string, author = 'Ada Lovelace') => ({ id, message, url: `${SITE}ada/app/commit/${id}`, author: { name: author } });
const push = {
  ref: 'refs/heads/main', compare_url: `${SITE}ada/app/compare/${'a'.repeat(40)}...${'c'.repeat(40)}`, total_commits: 2,
  commits: [commit('c'.repeat(40), 'Fix <b> & co\n\nDetails'), commit('b'.repeat(40), 'Add a feature whose summary line is longer than fifty characters')],
  repository, pusher: ada, sender: ada,
};
const issue = { id: 40, number: 4, title: 'It breaks', body: 'Steps to reproduce', html_url: `${SITE}ada/app/issues/4`, assignees: [bob], milestone: { id: 5, title: 'v1' } };
const pull = { id: 41, number: 5, title: 'Fix it', body: 'Fixes #4', url: `${SITE}ada/app/pulls/5`, html_url: `${SITE}ada/app/pulls/5`, merged: false, assignees: [] };

const slackMeta = { channel: '#dev', username: 'anvil', icon_url: '', color: 'good' };
const slack = (event: HookEvent, payload: object) => JSON.parse(deliveryBody({ type: 'slack', contentType: 'json', meta: slackMeta }, event, payload as never));
const discord = (event: HookEvent, payload: object) => JSON.parse(deliveryBody({ type: 'discord', contentType: 'json', meta: {} }, event, payload as never));
const teams = (event: HookEvent, payload: object) => JSON.parse(deliveryBody({ type: 'msteams', contentType: 'json', meta: {} }, event, payload as never));

describe('a push told in chat', () => {
  it('Slack links the repository, branch and comparison, and lists each commit as `<link|id>: first line - author` in the hook\'s colour', () => {
    expect(slack('push', push)).toEqual({
      channel: '#dev', username: 'anvil', icon_url: '', unfurl_links: 0, link_names: 0,
      text: `[<${SITE}ada/app|ada/app>:<${SITE}ada/app/src/branch/main|main>] <${push.compare_url}|2 new commits> pushed by ada`,
      attachments: [{
        fallback: '', color: 'good', title: `${SITE}ada/app`, title_link: `${SITE}ada/app`,
        text: `<${SITE}ada/app/commit/${'c'.repeat(40)}|ccccccc>: Fix &lt;b&gt; &amp; co - Ada Lovelace\n` +
          `<${SITE}ada/app/commit/${'b'.repeat(40)}|bbbbbbb>: Add a feature whose summary line is longer than fifty characters - Ada Lovelace`,
      }],
    });
  });

  it('Discord titles it by branch, links the comparison, cuts each summary at 50 characters and names the pusher as author', () => {
    expect(discord('push', push)).toEqual({
      wait: false, content: '', username: '', tts: false,
      embeds: [{
        title: '[ada/app:main] 2 new commits', url: push.compare_url, color: 0x1ac600,
        description: `[ccccccc](${SITE}ada/app/commit/${'c'.repeat(40)}) Fix <b> & co - Ada Lovelace\n` +
          `[bbbbbbb](${SITE}ada/app/commit/${'b'.repeat(40)}) Add a feature whose summary line is longer than... - Ada Lovelace`,
        footer: { text: '' }, author: { name: 'ada', url: `${SITE}ada`, icon_url: `${SITE}avatars/7` }, fields: null,
      }],
    });
  });

  it('a single commit links to the commit itself', () => {
    const one = { ...push, total_commits: 1, commits: [push.commits[0]] };
    expect(discord('push', one).embeds[0]).toMatchObject({ title: '[ada/app:main] 1 new commit', url: one.commits[0].url });
    expect(teams('push', one).potentialAction[0].targets[0].uri).toBe(one.commits[0].url);
    expect(slack('push', one).text).toContain(`|1 new commit>`);
  });

  it('a push that created the branch (no comparison) links to the branch', () => {
    const created = { ...push, compare_url: '' };
    expect(slack('push', created).text).toBe(`[<${SITE}ada/app|ada/app>:<${SITE}ada/app/src/branch/main|main>] 2 new commits pushed by ada`);
    expect(discord('push', created).embeds[0].url).toBe(`${SITE}ada/app/src/main`);
  });

  it('Teams sends a MessageCard with the sender, the whole messages a blank line apart, and the repository and commit count as facts', () => {
    expect(teams('push', push)).toEqual({
      '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: '1ac600',
      title: '[ada/app:main] 2 new commits', summary: '[ada/app:main] 2 new commits',
      sections: [{
        activityTitle: 'Ada Lovelace', activitySubtitle: 'ada', activityImage: `${SITE}avatars/7`,
        facts: [{ name: 'Repository:', value: 'ada/app' }, { name: 'Commit count:', value: '2' }],
        text: `[ccccccc](${SITE}ada/app/commit/${'c'.repeat(40)}) Fix <b> & co\n\nDetails - Ada Lovelace\n\n` +
          `[bbbbbbb](${SITE}ada/app/commit/${'b'.repeat(40)}) Add a feature whose summary line is longer than fifty characters - Ada Lovelace`,
      }],
      potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: push.compare_url }] }],
    });
  });

  it('is indented with two spaces, as Gitea sends every body', () => {
    expect(deliveryBody({ type: 'discord', contentType: 'json', meta: {} }, 'push', push)).toMatch(/^\{\n {2}"wait": false,/);
  });
});

describe('issues and pull requests told in chat', () => {
  it('an opened issue: Slack links repository, issue and sender, with the body as an orange attachment', () => {
    expect(slack('issues', { action: 'opened', number: 4, issue, repository, sender: ada })).toMatchObject({
      text: `[<${SITE}ada/app|ada/app>] Issue opened: <${SITE}ada/app/issues/4|#4 It breaks> by <${SITE}ada|ada>`,
      attachments: [{ fallback: '', color: 'eb6420', title: '#4 It breaks', title_link: issue.html_url, text: 'Steps to reproduce' }],
    });
  });

  it('a closed issue has no attachment in Slack, a red embed in Discord and the issue\'s id as a Teams fact', () => {
    const closed = { action: 'closed', number: 4, issue, repository, sender: ada };
    expect(slack('issues', closed).attachments).toBeNull();
    expect(discord('issues', closed).embeds[0]).toMatchObject({ title: '[ada/app] Issue closed: #4 It breaks', description: '', url: issue.html_url, color: 0xff3232 });
    expect(teams('issues', closed).sections[0].facts).toEqual([{ name: 'Repository:', value: 'ada/app' }, { name: 'Issue #:', value: '40' }]);
  });

  it.each([
    ['assigned', 'issue_assign', '[ada/app] Issue assigned to bob: #4 It breaks', 0x1ac600],
    ['reopened', 'issues', '[ada/app] Issue re-opened: #4 It breaks', 0xffd930],
    ['label_updated', 'issue_label', '[ada/app] Issue labels updated: #4 It breaks', 0xffd930],
    ['milestoned', 'issue_milestone', '[ada/app] Issue milestoned to v1: #4 It breaks', 0xffd930],
    ['demilestoned', 'issue_milestone', '[ada/app] Issue milestone cleared: #4 It breaks', 0xffd930],
  ] as const)('an issue %s is titled in Discord as in Gitea, without the sender', (action, event, title, color) => {
    expect(discord(event, { action, number: 4, issue, repository, sender: ada }).embeds[0]).toMatchObject({ title, color });
  });

  it('Slack links each assignee and the milestone', () => {
    expect(slack('issue_assign', { action: 'assigned', number: 4, issue, repository, sender: ada }).text)
      .toBe(`[<${SITE}ada/app|ada/app>] Issue assigned to <${SITE}bob|bob>: <${SITE}ada/app/issues/4|#4 It breaks> by <${SITE}ada|ada>`);
    expect(slack('issue_milestone', { action: 'milestoned', number: 4, issue, repository, sender: ada }).text)
      .toContain(`Issue milestoned to <${SITE}ada/app/milestone/5|v1>:`);
  });

  it.each([
    ['opened', false, 'opened', 0x1ac600, 'Fixes #4'],
    ['closed', false, 'closed', 0xff3232, ''],
    ['closed', true, 'merged', 0x7289da, ''],
    ['synchronized', false, 'synchronized', 0xffd930, ''],
    ['review_requested', false, 'review requested', 0xffd930, ''],
  ] as const)('a pull request %s (merged: %s) is "Pull request %s" with Gitea\'s colour', (action, merged, words, color, description) => {
    const payload = { action, number: 5, pull_request: { ...pull, merged }, repository, sender: ada };
    expect(discord('pull_request', payload).embeds[0]).toEqual(expect.objectContaining({
      title: `[ada/app] Pull request ${words}: #5 Fix it`, description, url: pull.html_url, color,
    }));
    expect(teams('pull_request', payload).sections[0].facts[1]).toEqual({ name: 'Pull request #:', value: '41' });
  });

  it('Slack shows an opened pull\'s body as a green attachment', () => {
    expect(slack('pull_request', { action: 'opened', number: 5, pull_request: pull, repository, sender: ada })).toMatchObject({
      text: `[<${SITE}ada/app|ada/app>] Pull request opened: <${SITE}ada/app/pulls/5|#5 Fix it> by <${SITE}ada|ada>`,
      attachments: [{ color: '1ac600', title: '#5 Fix it', title_link: pull.html_url, text: 'Fixes #4' }],
    });
  });

  it.each([
    ['pull_request_review_approved', 'approved', 0x1ac600],
    ['pull_request_review_rejected', 'rejected', 0xff3232],
    ['pull_request_review_comment', 'comment', 0x4f545c],
  ] as const)('a review (%s) says "Pull request review %s" with its content', (event, verdict, color) => {
    const payload = { action: 'reviewed', number: 5, pull_request: pull, repository, sender: bob, review: { type: event, content: 'LGTM' } };
    expect(discord(event, payload).embeds[0]).toMatchObject({ title: `[ada/app] Pull request review ${verdict}: #5 Fix it`, description: 'LGTM', color });
    expect(slack(event, payload)).toMatchObject({
      text: `[<${SITE}ada/app|ada/app>] Pull request review ${verdict}: [#5 Fix it](${SITE}ada/app/pulls/5) by <${SITE}bob|bob>`, attachments: null,
    });
    expect(teams(event, payload)).toMatchObject({ themeColor: color.toString(16), sections: [{ text: 'LGTM', activitySubtitle: 'bob' }] });
  });

  it('a comment: Slack shows its body under a line naming the issue, light orange on an issue and light green on a pull', () => {
    const comment = { id: 90, body: 'Me <too>', html_url: `${SITE}ada/app/issues/4#issuecomment-90`, issue_url: issue.html_url, pull_request_url: '' };
    expect(slack('issue_comment', { action: 'created', issue, comment, repository, sender: bob, is_pull: false })).toMatchObject({
      text: `[<${SITE}ada/app|ada/app>] New comment on issue <${SITE}ada/app/issues/4|#4 It breaks> by <${SITE}bob|bob>`,
      attachments: [{ color: 'e68d60', title: '#4 It breaks', title_link: comment.html_url, text: 'Me &lt;too&gt;' }],
    });
    const onPull = { ...comment, issue_url: '', pull_request_url: `${SITE}ada/app/pulls/4` };
    expect(discord('pull_request_comment', { action: 'created', issue, comment: onPull, repository, sender: bob, is_pull: true }).embeds[0])
      .toMatchObject({ title: '[ada/app] New comment on pull request #4 It breaks', description: 'Me <too>', color: 0xbfe5bf });
    expect(discord('issue_comment', { action: 'deleted', issue, comment, repository, sender: bob, is_pull: false }).embeds[0])
      .toMatchObject({ title: '[ada/app] Comment deleted on issue #4 It breaks', color: 0xff3232 });
  });
});

describe('branches, tags, repositories, forks and statuses told in chat', () => {
  const created = { sha: 'c'.repeat(40), ref: 'v1.0', ref_type: 'tag', repository, sender: ada };

  it('a created tag: Slack links it, Discord and Teams title it and link its page', () => {
    expect(slack('create', created).text).toBe(`[<${SITE}ada/app|ada/app>:<${SITE}ada/app/src/tag/v1.0|v1.0>] tag created by ada`);
    expect(discord('create', created).embeds[0]).toMatchObject({ title: '[ada/app] tag v1.0 created', url: `${SITE}ada/app/src/v1.0`, color: 0x1ac600 });
    expect(teams('create', created).sections[0].facts).toEqual([{ name: 'Repository:', value: 'ada/app' }, { name: 'tag:', value: 'v1.0' }]);
  });

  it('a deleted branch: red in Discord, yellow in Teams, unlinked in Slack', () => {
    const deleted = { ref: 'feature/x', ref_type: 'branch', pusher_type: 'user', repository, sender: ada };
    expect(slack('delete', deleted).text).toBe(`[<${SITE}ada/app|ada/app>:feature/x] branch deleted by ada`);
    expect(discord('delete', deleted).embeds[0]).toMatchObject({ title: '[ada/app] branch feature/x deleted', url: `${SITE}ada/app/src/feature/x`, color: 0xff3232 });
    expect(teams('delete', deleted).themeColor).toBe('ffd930');
  });

  it('a repository created or deleted', () => {
    expect(slack('repository', { action: 'created', repository, sender: ada }).text).toBe(`[<${SITE}ada/app|ada/app>] Repository created by <${SITE}ada|ada>`);
    expect(discord('repository', { action: 'deleted', repository, sender: ada }).embeds[0]).toMatchObject({ title: '[ada/app] Repository deleted', url: '', color: 0xff3232 });
    expect(teams('repository', { action: 'created', repository, sender: ada }).sections[0].facts).toEqual([{ name: 'Repository:', value: 'ada/app' }]);
  });

  it('a fork names the parent and the fork', () => {
    const fork = { forkee: repository, repository: { full_name: 'bob/app', html_url: `${SITE}bob/app` }, sender: bob };
    expect(slack('fork', fork).text).toBe(`<${SITE}ada/app|ada/app> is forked to <${SITE}bob/app|bob/app>`);
    expect(teams('fork', fork)).toMatchObject({ title: 'ada/app is forked to bob/app', sections: [{ facts: [{ name: 'Repository:', value: 'bob/app' }, { name: 'Forkee:', value: 'ada/app' }] }] });
  });

  it('a commit status names its context, commit and description', () => {
    const status = { sha: 'c'.repeat(40), context: 'ci/build', state: 'success', description: 'ok', target_url: 'https://ci.example/1', repository, sender: ada };
    expect(slack('status', status).text).toBe(`Commit Status changed: ci/build[${'c'.repeat(40)}]:ok by ada`);
    expect(discord('status', status).embeds[0]).toMatchObject({ title: `Commit Status changed: ci/build[${'c'.repeat(40)}]:ok`, url: 'https://ci.example/1' });
    expect(teams('status', status).sections[0].facts[1]).toEqual({ name: 'CommitStatus:', value: 'ci/build' });
  });

  it('every event a published change fires has a message in each chat type', () => {
    const shapes = [{ issue: { is_pull: false } }, { issue: { is_pull: true }, pull_request: {} }];
    const fired = new Set(Object.values(HOOK_EVENT_KINDS).flatMap((kind) => shapes.map((shape) => hookEventOf(kind, shape))).filter((e) => e !== undefined));
    expect(fired.size).toBeGreaterThan(15);
    for (const event of fired) {
      for (const send of [slack, discord, teams]) expect(() => send(event, { action: 'opened', repository, sender: ada })).not.toThrow();
    }
  });

  it('events Anvil fires nothing for yet are sent to no chat hook, and as Gitea\'s payload to the others', () => {
    for (const type of ['slack', 'discord', 'msteams'] as const) expect(hasDeliveryBody({ type }, 'release')).toBe(false);
    expect(hasDeliveryBody({ type: 'gitea' }, 'release')).toBe(true);
    expect(hasDeliveryBody({ type: 'slack' }, 'push')).toBe(true);
    expect(() => slack('release', { repository, sender: ada })).toThrow('no chat message for the release event');
  });
});
