// What repository publishes (proto/anvil/repository/v1/repository_events.proto), as outbox
// rows written in the transaction of the change. Subjects are context-relative
// (`repository.repo.created` → `<namespace>.repository.repo.created` on the stream).
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import type { RepositoryEvent } from '../domain/store.js';
import { repositoryMessage, timestamp } from '../grpc/messages.js';
import type { EventFacts } from '../store/event-facts.js';

export const REPOSITORY_SUBJECTS = {
  repoCreated: 'repository.repo.created',
  repoUpdated: 'repository.repo.updated',
  repoDeleted: 'repository.repo.deleted',
  repoForked: 'repository.repo.forked',
  collaboratorAdded: 'repository.collaborator.added',
  collaboratorRemoved: 'repository.collaborator.removed',
  push: 'repository.push',
  branchCreated: 'repository.branch.created',
  branchDeleted: 'repository.branch.deleted',
  tagCreated: 'repository.tag.created',
  tagDeleted: 'repository.tag.deleted',
} as const;

const TYPE = (name: string) => `anvil.repository.v1.${name}`;

/** Who changed the repository, for webhook payloads; unset when the system did. */
const actorOf = (event: { actorId: number; actorLogin?: string }) =>
  (event.actorId > 0 && event.actorLogin ? { id: event.actorId, login: event.actorLogin } : undefined);

/**
 * `facts`: the repository's owner, the user who acted and a fork's parent, for webhook
 * payloads (store/event-facts.ts); the repo.forked event's `parent_owner` is its parent's owner.
 */
export function outboxRowOf(event: RepositoryEvent, facts: EventFacts = {}, parentOwner?: EventFacts['repository_owner']): OutboxEventRow {
  switch (event.kind) {
    case 'repo.created':
      return outboxEvent(REPOSITORY_SUBJECTS.repoCreated, TYPE('RepositoryCreated'),
        { repository: repositoryMessage(event.repository), actor_id: event.actorId, actor: actorOf(event), ...facts } satisfies pb.RepositoryCreatedInput);
    case 'repo.updated':
      return outboxEvent(REPOSITORY_SUBJECTS.repoUpdated, TYPE('RepositoryUpdated'),
        { repository: repositoryMessage(event.repository), actor_id: event.actorId, actor: actorOf(event), ...facts } satisfies pb.RepositoryUpdatedInput);
    case 'repo.deleted':
      return outboxEvent(REPOSITORY_SUBJECTS.repoDeleted, TYPE('RepositoryDeleted'),
        { repository: repositoryMessage(event.repository), actor_id: event.actorId, actor: actorOf(event), ...facts } satisfies pb.RepositoryDeletedInput);
    case 'repo.forked':
      return outboxEvent(REPOSITORY_SUBJECTS.repoForked, TYPE('RepositoryForked'), {
        repository: repositoryMessage(event.repository), parent: repositoryMessage(event.parent), actor_id: event.actorId, actor: actorOf(event),
        repository_owner: facts.repository_owner, sender: facts.sender, parent_owner: parentOwner,
        permission: event.permission, parent_permission: event.parentPermission,
      } satisfies pb.RepositoryForkedInput);
    case 'collaborator.added':
      return outboxEvent(REPOSITORY_SUBJECTS.collaboratorAdded, TYPE('CollaboratorAdded'),
        { repository_id: event.repositoryId, user_id: event.userId, permission: event.mode, actor_id: event.actorId } satisfies pb.CollaboratorAddedInput);
    case 'collaborator.removed':
      return outboxEvent(REPOSITORY_SUBJECTS.collaboratorRemoved, TYPE('CollaboratorRemoved'),
        { repository_id: event.repositoryId, user_id: event.userId, actor_id: event.actorId } satisfies pb.CollaboratorRemovedInput);
    case 'push': {
      const { push } = event;
      return outboxEvent(REPOSITORY_SUBJECTS.push, TYPE('Push'), {
        repository: repositoryMessage(event.repository),
        ref: push.ref,
        before: push.before,
        after: push.after,
        pusher: event.pusher,
        total_commits: push.totalCommits,
        commits: push.commits.map((c) => ({
          id: c.id,
          message: c.message,
          author: { name: c.authorName, email: c.authorEmail, when: timestamp(new Date(c.authorTime * 1000)) },
          committer: { name: c.committerName, email: c.committerEmail, when: timestamp(new Date(c.committerTime * 1000)) },
          timestamp: timestamp(new Date(c.committerTime * 1000)),
          added: c.added,
          removed: c.removed,
          modified: c.modified,
        })),
        ...facts,
      } satisfies pb.PushInput);
    }
    case 'branch.created':
    case 'branch.deleted':
    case 'tag.created':
    case 'tag.deleted': {
      const subject = { 'branch.created': REPOSITORY_SUBJECTS.branchCreated, 'branch.deleted': REPOSITORY_SUBJECTS.branchDeleted,
        'tag.created': REPOSITORY_SUBJECTS.tagCreated, 'tag.deleted': REPOSITORY_SUBJECTS.tagDeleted }[event.kind];
      return outboxEvent(subject, TYPE('RefChanged'), {
        repository: repositoryMessage(event.repository), name: event.name, ref: event.ref, sha: event.sha, pusher: event.pusher, ...facts,
      } satisfies pb.RefChangedInput);
    }
  }
}
