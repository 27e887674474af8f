// Payload shapes: Gitea's structs for each event the repository service publishes, the
// chat types' messages, and form encoding.
import { describe, expect, it } from '@jest/globals';
import { deliveryBody, deliveryContentType } from '../src/payloads/body.js';
import { forkPayload, pushPayload, statusPayload } from '../src/payloads/gitea.js';
import { HOOK_EVENT_KINDS } from '../src/events/hook-event-kinds.js';

const ROOT = 'https://forge.example/';
const repository = { id: 3, owner_id: 7, owner_login: 'ada', name: 'app', default_branch: 'main' } as never;
const when = { seconds: 1_700_000_000, nanos: 0 };
const commit = {
  id: 'c'.repeat(40), message: 'Fix the build\n\nDetails', author: { name: 'Ada', email: 'ada@example.com', when },
  committer: { name: 'Ada', email: 'ada@example.com', when }, timestamp: when, added: [], removed: [], modified: ['a.txt'],
};
const push = { repository, ref: 'refs/heads/main', before: 'b'.repeat(40), after: 'c'.repeat(40), pusher: { id: 7, login: 'ada' }, commits: [commit], total_commits: 1 } as never;

describe('webhook payloads', () => {
  it('a push has Gitea\'s fields', () => {
    const payload = pushPayload(push, ROOT);
    expect(Object.keys(payload).sort()).toEqual(['after', 'before', 'commits', 'compare_url', 'head_commit', 'pusher', 'ref', 'repository', 'sender', 'total_commits']);
    expect(payload.head_commit).toMatchObject({ id: 'c'.repeat(40), url: `${ROOT}ada/app/commit/${'c'.repeat(40)}`, timestamp: '2023-11-14T22:13:20Z', modified: ['a.txt'] });
    expect(payload.repository).toMatchObject({ full_name: 'ada/app', clone_url: `${ROOT}ada/app.git`, ssh_url: 'git@forge.example:ada/app.git' });
  });

  it('a push creating a branch has no compare URL', () => {
    expect(pushPayload({ ...(push as object), before: '0'.repeat(40) } as never, ROOT).compare_url).toBe('');
  });

  it('a status has Gitea\'s fields', () => {
    const payload = statusPayload({
      repository, sha: 'c'.repeat(40), context: 'ci/build', state: 'success', target_url: 'https://ci.example/1', description: 'ok',
      index: 2, creator: { id: 7, login: 'ada' }, created: when, commit,
    } as never, ROOT);
    expect(payload).toMatchObject({ id: 2, sha: 'c'.repeat(40), context: 'ci/build', state: 'success', target_url: 'https://ci.example/1', sender: { login: 'ada' }, commit: { id: 'c'.repeat(40) } });
  });

  it('a fork fires `fork` on the forked repository with Gitea\'s ForkPayload: forkee the parent, repository the fork', () => {
    const fork = { id: 9, owner_id: 8, owner_login: 'bob', name: 'app', default_branch: 'main', fork_id: 3 } as never;
    const event = { repository: fork, parent: { ...(repository as object), num_forks: 1 }, actor_id: 8, actor: { id: 8, login: 'bob' } } as never;
    const kind = HOOK_EVENT_KINDS['repository.repo.forked'];
    expect(kind.event).toBe('fork');
    expect(kind.repository(event)).toMatchObject({ id: 3 });
    const payload = forkPayload(event, ROOT);
    expect(payload).toMatchObject({
      forkee: { full_name: 'ada/app', fork: false, forks_count: 1 },
      repository: { full_name: 'bob/app', fork: true, parent: { full_name: 'ada/app' } },
      sender: { login: 'bob' },
    });
  });

  it('chat types read the push payload as built: its repository, branch, comparison, pusher and commits', () => {
    const payload = pushPayload(push, ROOT);
    const slack = JSON.parse(deliveryBody({ type: 'slack', contentType: 'json', meta: { channel: '#ci', username: 'anvil', icon_url: '', color: '' } }, 'push', payload));
    expect(slack).toMatchObject({ channel: '#ci', username: 'anvil' });
    expect(slack.text).toBe(`[<${ROOT}ada/app|ada/app>:<${ROOT}ada/app/src/branch/main|main>] <${payload.compare_url}|1 new commit> pushed by ada`);
    expect(slack.attachments[0].text).toBe(`<${ROOT}ada/app/commit/${'c'.repeat(40)}|ccccccc>: Fix the build - Ada`);
    const discord = JSON.parse(deliveryBody({ type: 'discord', contentType: 'json', meta: {} }, 'push', payload));
    expect(discord.embeds[0]).toMatchObject({ title: '[ada/app:main] 1 new commit', url: `${ROOT}ada/app/commit/${'c'.repeat(40)}`, author: { name: 'ada', url: `${ROOT}ada` } });
    const teams = JSON.parse(deliveryBody({ type: 'msteams', contentType: 'json', meta: {} }, 'push', payload));
    expect(teams).toMatchObject({ '@type': 'MessageCard', title: '[ada/app:main] 1 new commit', sections: [{ activitySubtitle: 'ada' }] });
    expect(deliveryContentType({ type: 'slack', contentType: 'form' })).toBe('application/json');
  });

  it('form content sends the JSON as the `payload` field', () => {
    const body = deliveryBody({ type: 'gitea', contentType: 'form', meta: {} }, 'push', { ref: 'refs/heads/main' });
    expect(JSON.parse(new URLSearchParams(body).get('payload')!)).toEqual({ ref: 'refs/heads/main' });
    expect(deliveryContentType({ type: 'gitea', contentType: 'form' })).toBe('application/x-www-form-urlencoded');
  });
});
