// The fork read model (table "fork_repository"): each fork as the repository service last
// described it (its repository, owner and parent), so a pull event from a fork carries the
// head repository its webhook payload shows as `head.repo` (pulls.proto HeadRepository)
// without calling back. The repository service's events keep it; a pull opened from a fork
// the events have not told of yet brings the fork as the gateway resolved it.
import type { PgTransactionClient } from '@anvil/kit';
import type { collaboration as pb } from '@anvil/proto';
import type { ForkFacts, Pull } from '../domain/pull-store.js';
import type { Prisma } from './generated/client.js';
import type { CollaborationTx } from './db.js';

const jsonOf = (facts: ForkFacts) => JSON.parse(JSON.stringify(facts)) as Prisma.InputJsonValue;

/** repository.repo.created/updated of a fork: the fork as the event describes it now. */
export async function putFork(tx: CollaborationTx, id: number, facts: ForkFacts): Promise<void> {
  await tx.forkRepository.upsert({ where: { id: BigInt(id) }, create: { id: BigInt(id), facts: jsonOf(facts) }, update: { facts: jsonOf(facts) } });
}

/** A fork a pull is opened from, unless the events described it already (they are newer). */
export async function rememberFork(tx: CollaborationTx, id: number, facts: ForkFacts): Promise<void> {
  await tx.forkRepository.createMany({ data: [{ id: BigInt(id), facts: jsonOf(facts) }], skipDuplicates: true });
}

/** repository.repo.deleted, or a fork left standing alone: no longer any pull's head.repo. */
export async function forgetFork(tx: CollaborationTx, id: number): Promise<void> {
  await tx.forkRepository.deleteMany({ where: { id: BigInt(id) } });
}

/** The head repository of `pull` when it is a fork the read model knows; one lookup by key. */
/** The pull's head repository when it is another one (a fork), else undefined. */
const forkIdOf = (pull: Pull | undefined) => (pull && pull.headRepoId > 0 && pull.headRepoId !== pull.issue.repositoryId ? pull.headRepoId : undefined);

export async function headRepositoryOf(tx: CollaborationTx, pull: Pull | undefined): Promise<pb.HeadRepositoryInput | undefined> {
  const forkId = forkIdOf(pull);
  if (forkId === undefined) return undefined;
  const row = await tx.forkRepository.findUnique({ where: { id: BigInt(forkId) } });
  return row ? (row.facts as unknown as pb.HeadRepositoryInput) : undefined;
}

/** headRepositoryOf on a pg transaction's client (pgOutboxTransaction). */
export async function headRepositoryOn(client: PgTransactionClient, pull: Pull | undefined): Promise<pb.HeadRepositoryInput | undefined> {
  const forkId = forkIdOf(pull);
  if (forkId === undefined) return undefined;
  const { rows } = await client.query<{ facts: pb.HeadRepositoryInput }>('SELECT facts FROM fork_repository WHERE id = $1', [String(forkId)]);
  return rows[0]?.facts;
}
