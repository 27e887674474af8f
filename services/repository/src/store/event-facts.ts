// What the events that fire webhooks carry beside the repository row
// (repository_events.proto): its owner and the user who acted, as the owner read model last
// heard them from identity, and a fork's parent with its owner. Read in the transaction that
// writes the event, so the hooks service presents the repository and the sender as Gitea's
// convert.ToRepo and ToUser do without asking anyone.
import type { identity, repository as pb } from '@anvil/proto';
import type { Repository } from '../domain/repository.js';
import { ownerUserMessage, repositoryMessage } from '../grpc/messages.js';
import type { Repository as RepositoryRow } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { ownerReader } from './owners.js';

export interface EventFacts {
  repository_owner?: identity.UserInput;
  sender?: identity.UserInput;
  repository_parent?: pb.RepositoryAccessInput;
}

/**
 * The facts of events written in one transaction (or one statement): a push writes two or
 * three events for one repository and pusher, so each user and parent is read once per transaction.
 */
export function eventFactsReader(tx: RepositoryDb | RepositoryTx, toRepository: (row: RepositoryRow) => Repository) {
  const owners = ownerReader(tx);
  const users = new Map<number, Promise<identity.UserInput | undefined>>();
  const parents = new Map<number, Promise<pb.RepositoryAccessInput | undefined>>();

  /** A user or organization as identity described it; undefined when the read model does not know them. */
  const userOf = (id: number) => {
    let user = users.get(id);
    if (!user) {
      user = id > 0
        ? owners.findById(id).then((owner) => (owner ? ownerUserMessage(owner) : undefined))
        : Promise.resolve(undefined);
      users.set(id, user);
    }
    return user;
  };

  const parentOf = (forkId: number) => {
    let parent = parents.get(forkId);
    if (!parent) {
      parent = tx.repository.findUnique({ where: { id: BigInt(forkId) } }).then(async (row) => {
        if (!row) return undefined;
        const repository = toRepository(row);
        return { repository: repositoryMessage(repository), owner: await userOf(repository.owner_id) };
      });
      parents.set(forkId, parent);
    }
    return parent;
  };

  return {
    userOf,
    async factsOf(repository: Repository, senderId: number): Promise<EventFacts> {
      const forkId = Number(repository.fork_id ?? 0);
      return {
        repository_owner: await userOf(repository.owner_id),
        sender: await userOf(senderId),
        repository_parent: forkId > 0 ? await parentOf(forkId) : undefined,
      };
    },
  };
}

export type EventFactsReader = ReturnType<typeof eventFactsReader>;
