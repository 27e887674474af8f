// The organization/team read model's writes (tables `owner`, `org_team`, `org_team_member`,
// `team_repository`), inside the consumer's transaction.
import type { OrgWriter } from '../domain/org-read-model.js';
import type { Prisma } from './generated/client.js';
import type { RepositoryTx } from './db.js';
import { ownerWriter } from './owners.js';

export function orgWriter(tx: RepositoryTx): OrgWriter {
  return {
    ...ownerWriter(tx),
    async isTeamDeleted(teamId) {
      return (await tx.deletedTeam.count({ where: { id: BigInt(teamId) } })) > 0;
    },
    async saveTeam(team) {
      const row = {
        org_id: BigInt(team.orgId), name: team.name, permission: team.permission,
        units_map: team.unitsMap as Prisma.InputJsonValue,
        includes_all_repositories: team.includesAllRepositories, can_create_org_repo: team.canCreateOrgRepo,
      };
      await tx.orgTeam.upsert({ where: { id: BigInt(team.id) }, create: { id: BigInt(team.id), ...row }, update: row });
    },
    async removeTeam(teamId) {
      const team_id = BigInt(teamId);
      await tx.teamRepository.deleteMany({ where: { team_id } });
      await tx.orgTeamMember.deleteMany({ where: { team_id } });
      await tx.orgTeam.deleteMany({ where: { id: team_id } });
      await tx.deletedTeam.createMany({ data: [{ id: team_id }], skipDuplicates: true });
    },
    async removeTeamsOf(orgId) {
      const org_id = BigInt(orgId);
      const teams = await tx.orgTeam.findMany({ where: { org_id }, select: { id: true } });
      if (teams.length) await tx.deletedTeam.createMany({ data: teams.map((t) => ({ id: t.id })), skipDuplicates: true });
      await tx.teamRepository.deleteMany({ where: { org_id } });
      await tx.orgTeamMember.deleteMany({ where: { org_id } });
      await tx.orgTeam.deleteMany({ where: { org_id } });
    },
    async addMember(teamId, orgId, userId) {
      await tx.orgTeamMember.createMany({ data: [{ team_id: BigInt(teamId), org_id: BigInt(orgId), user_id: BigInt(userId) }], skipDuplicates: true });
    },
    async removeMember(teamId, userId) {
      await tx.orgTeamMember.deleteMany({ where: { team_id: BigInt(teamId), user_id: BigInt(userId) } });
    },
  };
}
