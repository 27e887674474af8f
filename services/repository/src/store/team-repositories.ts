// Teams' explicit repositories (table `team_repository`): reads and writes behind the
// TeamRepositoryReader/Writer ports of domain/store.ts.
import type { Repository } from '../domain/repository.js';
import type { TeamRepositoryReader, TeamRepositoryWriter, TeamScope } from '../domain/store.js';
import type { Prisma, Repository as RepositoryRow } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';

/** A team's repositories: every one of its org when it includes all, else those given to it. */
function teamRepositoriesWhere(team: TeamScope): Prisma.RepositoryWhereInput {
  return team.includesAllRepositories
    ? { owner_id: BigInt(team.orgId) }
    : { owner_id: BigInt(team.orgId), team_repositories: { some: { team_id: BigInt(team.teamId) } } };
}

export function teamRepositoryReader(db: RepositoryDb | RepositoryTx, toRepository: (row: RepositoryRow) => Repository): TeamRepositoryReader {
  return {
    async teamHasRepository(team, repositoryId) {
      if (team.includesAllRepositories) return true;
      return (await db.teamRepository.count({ where: { team_id: BigInt(team.teamId), repository_id: BigInt(repositoryId) } })) > 0;
    },
    async listTeamRepositories(team, offset, limit) {
      const where = teamRepositoriesWhere(team);
      const [rows, total] = await Promise.all([
        db.repository.findMany({ where, orderBy: { id: 'asc' }, skip: offset, take: limit }),
        db.repository.count({ where }),
      ]);
      return { items: rows.map(toRepository), total };
    },
  };
}

export function teamRepositoryWriter(tx: RepositoryTx): TeamRepositoryWriter {
  return {
    async addTeamRepository(team, repositoryId) {
      await tx.teamRepository.createMany({
        data: [{ team_id: BigInt(team.teamId), org_id: BigInt(team.orgId), repository_id: BigInt(repositoryId) }],
        skipDuplicates: true,
      });
    },
    async removeTeamRepository(team, repositoryId) {
      await tx.teamRepository.deleteMany({ where: { team_id: BigInt(team.teamId), repository_id: BigInt(repositoryId) } });
    },
  };
}
