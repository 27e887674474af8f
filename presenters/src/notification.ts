// collaboration.NotificationThread (+ its repository) → Gitea's NotificationThread JSON
// (services/convert/notification.go ToNotificationThread). The repository is shown as to a
// reader, without permissions, as Gitea does.
import type { Caller } from '@anvil/kit';
import type { collaboration, repository } from '@anvil/proto';
import { presentRepository } from './repository.js';
import { repoUrls } from './repo-urls.js';
import { formatTime } from './time.js';

/** Repositories presented once per reply, by id: a page's threads mostly share a few repositories. */
export type ShownRepositories = Map<number, Record<string, unknown>>;

/** The repository as a thread shows it: as to a reader, without permissions. */
function threadRepository(access: repository.RepositoryAccess, caller: Caller, rootUrl: string, shown: ShownRepositories) {
  const id = Number(access.repository!.id);
  let presented = shown.get(id);
  if (!presented) {
    const { permissions: _permissions, ...rest } = presentRepository(access, access.owner!, caller, rootUrl);
    shown.set(id, (presented = rest));
  }
  return presented;
}

export function presentNotificationThread(
  thread: collaboration.NotificationThread, access: repository.RepositoryAccess, caller: Caller, rootUrl: string, shown: ShownRepositories = new Map(),
) {
  const repo = access.repository!;
  const presented = threadRepository(access, caller, rootUrl, shown);
  const urls = repoUrls(rootUrl, access.owner!.login, repo.name);
  const subject = thread.subject;
  const index = Number(subject?.index ?? 0);
  const html = `${urls.html}/${subject?.type === 'Pull' ? 'pulls' : 'issues'}/${index}`;
  const commentId = Number(subject?.latest_comment_id ?? 0);
  return {
    id: thread.id,
    repository: presented,
    subject: {
      title: subject?.title ?? '',
      // Gitea's Issue.APIURL names pulls by their issue path too.
      url: `${urls.api}/issues/${index}`,
      latest_comment_url: commentId ? `${urls.api}/issues/comments/${commentId}` : '',
      html_url: html,
      latest_comment_html_url: commentId ? `${html}#issuecomment-${commentId}` : '',
      type: subject?.type || 'Issue',
      state: subject?.state || 'open',
    },
    unread: thread.status === 'unread',
    pinned: thread.status === 'pinned',
    updated_at: formatTime(thread.updated_at),
    url: `${rootUrl}api/v1/notifications/threads/${thread.id}`,
  };
}
