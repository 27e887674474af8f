// Which published events fire webhooks, one row per subject: the webhook event it is, the
// repository it happened in, the branch a hook's branch filter looks at, and Gitea's payload.
// Adding an event kind (collaboration's issues, comments, labels, ...) is one row here, once
// its subject and message are on the stream: the consumer reads every subject and skips
// those without a row.
import type { repository as pb } from '@anvil/proto';
import type { HookEvent } from '../domain/hook-events.js';
import { createPayload, deletePayload, pushPayload, repositoryPayload, shortRef, statusPayload } from '../payloads/gitea.js';

export interface HookEventKind<P = any> {
  event: HookEvent;
  repository(payload: P): pb.Repository;
  /** For push, create and delete: what `branch_filter` is matched against (Gitea's checkBranch). */
  branch?(payload: P): string;
  build(payload: P, rootUrl: string): Record<string, unknown>;
}

const kind = <P>(row: HookEventKind<P>): HookEventKind<P> => row;

export const HOOK_EVENT_KINDS: Record<string, HookEventKind> = {
  'repository.push': kind<pb.Push>({
    event: 'push', repository: (p) => p.repository!, branch: (p) => shortRef(p.ref), build: pushPayload,
  }),
  'repository.branch.created': kind<pb.RefChanged>({
    event: 'create', repository: (p) => p.repository!, branch: (p) => p.name, build: createPayload,
  }),
  'repository.tag.created': kind<pb.RefChanged>({
    event: 'create', repository: (p) => p.repository!, branch: (p) => p.name, build: createPayload,
  }),
  'repository.branch.deleted': kind<pb.RefChanged>({
    event: 'delete', repository: (p) => p.repository!, branch: (p) => p.name, build: deletePayload,
  }),
  'repository.tag.deleted': kind<pb.RefChanged>({
    event: 'delete', repository: (p) => p.repository!, branch: (p) => p.name, build: deletePayload,
  }),
  'repository.repo.created': kind<pb.RepositoryCreated>({
    event: 'repository', repository: (p) => p.repository!, build: (p, root) => repositoryPayload('created', p, root),
  }),
  'repository.repo.deleted': kind<pb.RepositoryDeleted>({
    event: 'repository', repository: (p) => p.repository!, build: (p, root) => repositoryPayload('deleted', p, root),
  }),
  'repository.status': kind<pb.CommitStatusCreated>({
    event: 'status', repository: (p) => p.repository!, build: statusPayload,
  }),
};

/** Every subject the table knows, for documentation and tests. */
export const HOOK_EVENT_SUBJECTS = Object.keys(HOOK_EVENT_KINDS);
