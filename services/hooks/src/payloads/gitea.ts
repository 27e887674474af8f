// Gitea's webhook payloads (modules/structs/hook.go: PushPayload, CreatePayload,
// DeletePayload, RepositoryPayload, ForkPayload, CommitStatusPayload), built from the events
// the repository service publishes. The repository and user JSON come from @anvil/presenters,
// as the API's do (Gitea's webhooks call the same convert.ToRepo and ToUser), seen by no one in
// particular: e-mails show as no-reply addresses. The events carry the repository's owner,
// the sender and a fork's parent as identity described them; a user the event names by id and
// login only shows the rest as a new user's.
import { ANONYMOUS, isZeroId, repoUrls } from '@anvil/kit';
import { formatTime, type identity, type repository as pb } from '@anvil/proto';
import { presentRepository } from '@anvil/presenters/repository.js';
import { completeUser, presentUser } from '@anvil/presenters/user.js';


export { formatTime } from '@anvil/proto';

type UserFacts = Partial<identity.User> & { id?: number | string; login?: string };

/** Gitea's ToUser(user, nil): a user as a webhook shows them. */
export function payloadUser(user: UserFacts | null | undefined, rootUrl: string) {
  return presentUser(completeUser({ ...(user ?? {}), id: Number(user?.id ?? 0), login: user?.login ?? '' } as Partial<identity.User>), ANONYMOUS, rootUrl);
}

/** The sender: the event's whole user when it has one, else who it names by id and login. */
const senderOf = (user: identity.User | null | undefined, named: UserFacts | null | undefined) =>
  (user?.id && Number(user.id) === Number(named?.id ?? user.id) ? user : named);

/** A repository as an event describes it (repository_events.proto, collaboration_events.proto). */
export interface RepositoryFacts {
  repository?: pb.Repository | null;
  repository_owner?: identity.User | null;
  repository_parent?: pb.RepositoryAccess | null;
}

/**
 * Which permission a payload's repository shows (its `permissions`, and whether its owner's
 * e-mail shows): Gitea's notifier chooses per event — the owner's for a push, a ref deletion
 * and a repository's creation or deletion, none for a ref's creation, the sender's (or the
 * poster's) for issues and pulls.
 */
export type PayloadPermission = 'none' | 'read' | 'write' | 'admin' | 'owner' | string;

/** Gitea's convert.ToRepo for a payload: one level of parent, shown with the same permission. */
export function payloadRepository(facts: RepositoryFacts, permission: PayloadPermission, rootUrl: string) {
  const repo = facts.repository!;
  const owner = completeUser(facts.repository_owner ?? { id: Number(repo.owner_id), login: repo.owner_login });
  const parent = facts.repository_parent?.repository;
  const parentAccess = parent ? {
    repository: parent, permission,
    owner: completeUser(facts.repository_parent!.owner ?? { id: Number(parent.owner_id), login: parent.owner_login }),
  } : undefined;
  return presentRepository({ repository: repo, owner, permission, parent: parentAccess } as pb.RepositoryAccess, owner, ANONYMOUS, rootUrl);
}

function payloadCommit(commit: pb.PushCommit, repo: pb.Repository, rootUrl: string) {
  const identity = (who: pb.CommitIdentity | null) => ({ name: who?.name ?? '', email: who?.email ?? '', username: '' });
  return {
    id: commit.id, message: commit.message, url: `${repoUrls(rootUrl, repo.owner_login, repo.name).html}/commit/${commit.id}`,
    author: identity(commit.author), committer: identity(commit.committer), verification: null,
    timestamp: formatTime(commit.timestamp), added: commit.added, removed: commit.removed, modified: commit.modified,
  };
}

/** `refs/heads/main` → `main`, `refs/tags/v1` → `v1`. */
export const shortRef = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');

/** Gitea's PushPayload; compare_url only when there is a range to compare. */
export function pushPayload(push: pb.Push, rootUrl: string) {
  const repo = push.repository!;
  const commits = push.commits.map((c) => payloadCommit(c, repo, rootUrl));
  const pusher = payloadUser(senderOf(push.sender, push.pusher), rootUrl);
  const compare = !isZeroId(push.before) && !isZeroId(push.after) && push.before !== push.after && commits.length > 0;
  return {
    ref: push.ref, before: push.before, after: push.after,
    compare_url: compare ? `${repoUrls(rootUrl, repo.owner_login, repo.name).html}/compare/${push.before}...${push.after}` : '',
    commits, total_commits: Number(push.total_commits), head_commit: commits[0] ?? null,
    repository: payloadRepository(push, 'owner', rootUrl), pusher, sender: pusher,
  };
}

const refType = (ref: string) => (ref.startsWith('refs/tags/') ? 'tag' : 'branch');

/** Gitea's CreatePayload: the short ref name and its type; Gitea shows the repository with no permission. */
export function createPayload(change: pb.RefChanged, rootUrl: string) {
  return {
    sha: change.sha, ref: change.name, ref_type: refType(change.ref),
    repository: payloadRepository(change, 'none', rootUrl), sender: payloadUser(senderOf(change.sender, change.pusher), rootUrl),
  };
}

/** Gitea's DeletePayload. */
export function deletePayload(change: pb.RefChanged, rootUrl: string) {
  return {
    ref: change.name, ref_type: refType(change.ref), pusher_type: 'user',
    repository: payloadRepository(change, 'owner', rootUrl), sender: payloadUser(senderOf(change.sender, change.pusher), rootUrl),
  };
}

/** Gitea's RepositoryPayload (created or deleted); `organization` is the owner. */
export function repositoryPayload(action: 'created' | 'deleted', event: pb.RepositoryCreated, rootUrl: string) {
  const repo = event.repository!;
  return {
    action, repository: payloadRepository(event, 'owner', rootUrl),
    organization: payloadUser(event.repository_owner ?? { id: Number(repo.owner_id), login: repo.owner_login }, rootUrl),
    sender: payloadUser(senderOf(event.sender, event.actor ?? { id: Number(event.actor_id), login: '' }), rootUrl),
  };
}

/**
 * Gitea's ForkPayload, sent to the parent's hooks: `forkee` is the repository that was forked
 * (the parent: Gitea's notifier passes it so) and `repository` the new fork, its parent set,
 * each shown with the sender's permission there.
 */
export function forkPayload(event: pb.RepositoryForked, rootUrl: string) {
  const parentFacts = { repository: event.parent, repository_owner: event.parent_owner };
  return {
    forkee: payloadRepository(parentFacts, event.parent_permission || 'read', rootUrl),
    repository: payloadRepository({
      repository: event.repository, repository_owner: event.repository_owner,
      repository_parent: { repository: event.parent, owner: event.parent_owner, permission: '', parent: null, collaborator: false },
    }, event.permission || 'owner', rootUrl),
    sender: payloadUser(senderOf(event.sender, event.actor ?? { id: Number(event.actor_id), login: '' }), rootUrl),
  };
}

/** Gitea's CommitStatusPayload; the repository shows with the owner's permission, as its notifier's. */
export function statusPayload(status: pb.CommitStatusCreated, rootUrl: string) {
  const repo = status.repository!;
  return {
    id: Number(status.index), sha: status.sha, state: status.state, target_url: status.target_url,
    description: status.description, context: status.context,
    commit: status.commit ? payloadCommit(status.commit, repo, rootUrl) : null,
    repository: payloadRepository(status, 'owner', rootUrl), sender: payloadUser(senderOf(status.sender, status.creator), rootUrl),
    created_at: formatTime(status.created_at), updated_at: formatTime(status.created_at),
  };
}
