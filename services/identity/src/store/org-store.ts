// OrgStore over PostgreSQL: organizations (type-1 user rows plus org_settings), their
// memberships (org_user) and teams (team, team_unit, team_user). Writes run inside the
// account store's transaction writer, so users, orgs and the outbox commit together.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { Org, OrgEvent, OrgReader, OrgStore, OrgWriter, Team, TeamFields } from '../domain/orgs-store.js';
import { UniqueViolation, type IdentityEvent } from '../domain/store.js';
import { accessModeNumber, accessModeOf, type UnitsMap } from '../domain/teams-units.js';
import type { Page, User } from '../domain/user.js';
import { outboxRowOf } from '../events/identity-events.js';
import { orgOutboxRowOf } from '../events/org-events.js';
import { isUniqueViolation, type IdentityDb, type IdentityTx } from './db.js';
import { identityStore, writer, type IdentityStoreOptions } from './identity-store.js';
import { toUser, userTypeNumber, visibilityNumber, visibilityOf } from './rows.js';

type Client = IdentityDb | IdentityTx;

const ORG = userTypeNumber('organization');
const skipOf = (page: Page) => (page.page - 1) * page.limit;
const teamInclude = { units: true } as const;

interface TeamRow {
  id: bigint; org_id: bigint; name: string; description: string; authorize: number;
  includes_all_repositories: boolean; can_create_org_repo: boolean; visibility: number;
  units: Array<{ type: string; access_mode: number }>;
}

function toTeam(row: TeamRow): Team {
  const units: UnitsMap = {};
  for (const unit of row.units) units[unit.type] = accessModeOf(unit.access_mode);
  return {
    id: Number(row.id), org_id: Number(row.org_id), name: row.name, description: row.description,
    access_mode: accessModeOf(row.authorize), units, includes_all_repositories: row.includes_all_repositories,
    can_create_org_repo: row.can_create_org_repo, visibility: visibilityOf(row.visibility, 'private'),
  };
}

function teamColumns(fields: Partial<TeamFields>) {
  const { units: _units, access_mode, visibility, org_id, name, ...same } = fields;
  return {
    ...same,
    ...(org_id !== undefined ? { org_id: BigInt(org_id) } : {}),
    ...(name !== undefined ? { name, lower_name: name.toLowerCase() } : {}),
    ...(access_mode !== undefined ? { authorize: accessModeNumber(access_mode) } : {}),
    ...(visibility !== undefined ? { visibility: visibilityNumber(visibility) } : {}),
  };
}

const unitRows = (units: UnitsMap) => Object.entries(units).map(([type, mode]) => ({ type, access_mode: accessModeNumber(mode) }));

async function withSettings(db: Client, rows: Parameters<typeof toUser>[0][]): Promise<Org[]> {
  if (rows.length === 0) return [];
  const settings = await db.orgSettings.findMany({ where: { org_id: { in: rows.map((r) => r.id) } } });
  const flag = new Map(settings.map((s) => [s.org_id, s.repo_admin_change_team_access]));
  return rows.map((row) => ({ account: toUser(row), repo_admin_change_team_access: flag.get(row.id) ?? false }));
}

async function usersPage(db: Client, uids: bigint[], page: Page) {
  const rows = await db.user.findMany({ where: { id: { in: uids } }, orderBy: { id: 'asc' }, skip: skipOf(page), take: page.limit });
  return { items: rows.map(toUser), total: uids.length };
}

function orgReader(db: Client): OrgReader {
  const orgWhere = (where: { lower_name: string } | { id: bigint }) => ({ ...where, type: ORG });
  return {
    async orgByName(name) {
      const row = await db.user.findFirst({ where: orgWhere({ lower_name: name.toLowerCase() }) });
      return row ? (await withSettings(db, [row]))[0] : undefined;
    },
    async orgById(id) {
      const row = await db.user.findFirst({ where: orgWhere({ id: BigInt(id) }) });
      return row ? (await withSettings(db, [row]))[0] : undefined;
    },
    async listOrgs(visibilities, page) {
      const where = { type: ORG, visibility: { in: visibilities.map(visibilityNumber) } };
      const [rows, total] = await Promise.all([
        db.user.findMany({ where, orderBy: { id: 'asc' }, skip: skipOf(page), take: page.limit }),
        db.user.count({ where }),
      ]);
      return { items: await withSettings(db, rows), total };
    },
    async userOrgs(uid, filter, page) {
      const memberships = await db.orgUser.findMany({
        where: { uid: BigInt(uid), ...(filter.publicMembershipsOnly ? { is_public: true } : {}) }, select: { org_id: true },
      });
      const where = { type: ORG, id: { in: memberships.map((m) => m.org_id) }, visibility: { in: filter.visibilities.map(visibilityNumber) } };
      const [rows, total] = await Promise.all([
        db.user.findMany({ where, orderBy: { id: 'asc' }, skip: skipOf(page), take: page.limit }),
        db.user.count({ where }),
      ]);
      return { items: await withSettings(db, rows), total };
    },
    async membershipOrgIds(uid) {
      const rows = await db.orgUser.findMany({ where: { uid: BigInt(uid) }, select: { org_id: true }, orderBy: { org_id: 'asc' } });
      return rows.map((r) => Number(r.org_id));
    },
    async membership(orgId, uid) {
      const row = await db.orgUser.findUnique({ where: { org_id_uid: { org_id: BigInt(orgId), uid: BigInt(uid) } } });
      return row ? { is_public: row.is_public } : undefined;
    },
    async isOwner(orgId, uid) {
      const count = await db.teamUser.count({
        where: { org_id: BigInt(orgId), uid: BigInt(uid), team: { authorize: accessModeNumber('owner') } },
      });
      return count > 0;
    },
    async members(orgId, publicOnly, page) {
      const rows = await db.orgUser.findMany({
        where: { org_id: BigInt(orgId), ...(publicOnly ? { is_public: true } : {}) }, select: { uid: true },
      });
      return usersPage(db, rows.map((r) => r.uid), page);
    },
    async teams(search) {
      const and: object[] = [{ org_id: BigInt(search.org_id) }];
      if (search.keyword) {
        const contains = { contains: search.keyword, mode: 'insensitive' as const };
        and.push({ OR: [{ name: contains }, ...(search.include_desc ? [{ description: contains }] : [])] });
      }
      if (search.member_uid !== undefined) and.push({ members: { some: { uid: BigInt(search.member_uid) } } });
      if (search.visible) {
        and.push({ OR: [
          { visibility: { in: search.visible.visibilities.map(visibilityNumber) } },
          { members: { some: { uid: BigInt(search.visible.member_uid) } } },
        ] });
      }
      const where = { AND: and };
      const [rows, total] = await Promise.all([
        db.team.findMany({
          where, include: teamInclude, orderBy: [{ lower_name: 'asc' }, { id: 'asc' }], skip: skipOf(search.page), take: search.page.limit,
        }),
        db.team.count({ where }),
      ]);
      return { items: rows.map(toTeam), total };
    },
    async teamById(id) {
      const row = await db.team.findUnique({ where: { id: BigInt(id) }, include: teamInclude });
      return row ? toTeam(row) : undefined;
    },
    async teamMembers(teamId, page) {
      const rows = await db.teamUser.findMany({ where: { team_id: BigInt(teamId) }, select: { uid: true } });
      return usersPage(db, rows.map((r) => r.uid), page);
    },
    async isTeamMember(teamId, uid) {
      return (await db.teamUser.count({ where: { team_id: BigInt(teamId), uid: BigInt(uid) } })) > 0;
    },
    async userTeams(uid, page) {
      const where = { uid: BigInt(uid) };
      const [rows, total] = await Promise.all([
        db.teamUser.findMany({
          where, include: { team: { include: teamInclude } }, orderBy: { team_id: 'asc' }, skip: skipOf(page), take: page.limit,
        }),
        db.teamUser.count({ where }),
      ]);
      const orgRows = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.org_id))] }, type: ORG } });
      const orgs = new Map((await withSettings(db, orgRows)).map((org) => [org.account.id, org]));
      const items = rows.flatMap((row) => {
        const org = orgs.get(Number(row.org_id));
        return org ? [{ team: toTeam(row.team), org }] : [];
      });
      return { items, total };
    },
  };
}

function orgWriter(tx: IdentityTx, published: unknown[]): OrgWriter {
  const accounts = writer(tx, published);
  const syncOrgMembership = async (orgId: bigint, uid: bigint) => {
    const teams = await tx.teamUser.count({ where: { org_id: orgId, uid } });
    if (teams === 0) await tx.orgUser.deleteMany({ where: { org_id: orgId, uid } });
  };
  return {
    ...accounts,
    ...orgReader(tx),
    async insertOrgSettings(orgId, flag) {
      await tx.orgSettings.create({ data: { org_id: BigInt(orgId), repo_admin_change_team_access: flag } });
    },
    async updateOrgSettings(orgId, flag) {
      await tx.orgSettings.upsert({
        where: { org_id: BigInt(orgId) },
        create: { org_id: BigInt(orgId), repo_admin_change_team_access: flag },
        update: { repo_admin_change_team_access: flag },
      });
    },
    async lockTeam(id) {
      const [locked] = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM team WHERE id = ${BigInt(id)} FOR UPDATE`;
      if (!locked) return undefined;
      const row = await tx.team.findUnique({ where: { id: locked.id }, include: teamInclude });
      return row ? toTeam(row) : undefined;
    },
    async insertTeam(fields) {
      try {
        const row = await tx.team.create({
          data: { ...teamColumns(fields), org_id: BigInt(fields.org_id), name: fields.name, lower_name: fields.name.toLowerCase(), units: { create: unitRows(fields.units) } },
          include: teamInclude,
        });
        return toTeam(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new UniqueViolation('team_name');
        throw err;
      }
    },
    async updateTeam(id, patch) {
      const teamId = BigInt(id);
      try {
        if (patch.units) {
          await tx.teamUnit.deleteMany({ where: { team_id: teamId } });
          await tx.teamUnit.createMany({ data: unitRows(patch.units).map((u) => ({ ...u, team_id: teamId })) });
        }
        const row = await tx.team.update({ where: { id: teamId }, data: teamColumns(patch), include: teamInclude });
        return toTeam(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new UniqueViolation('team_name');
        throw err;
      }
    },
    async deleteTeam(id) {
      const team = await tx.team.findUnique({ where: { id: BigInt(id) }, include: { members: { select: { uid: true } } } });
      if (!team) return;
      await tx.team.delete({ where: { id: team.id } }); // units and team_user rows cascade
      for (const member of team.members) await syncOrgMembership(team.org_id, member.uid);
    },
    async addTeamMember(team, uid) {
      const inserted = await tx.teamUser.createMany({
        data: [{ team_id: BigInt(team.id), org_id: BigInt(team.org_id), uid: BigInt(uid) }], skipDuplicates: true,
      });
      await tx.orgUser.createMany({ data: [{ org_id: BigInt(team.org_id), uid: BigInt(uid) }], skipDuplicates: true });
      return inserted.count === 1;
    },
    async removeTeamMember(team, uid) {
      const { count } = await tx.teamUser.deleteMany({ where: { team_id: BigInt(team.id), uid: BigInt(uid) } });
      await syncOrgMembership(BigInt(team.org_id), BigInt(uid));
      return count === 1;
    },
    async teamMemberCount(teamId) {
      return tx.teamUser.count({ where: { team_id: BigInt(teamId) } });
    },
    async setMemberPublic(orgId, uid, isPublic) {
      await tx.orgUser.updateMany({ where: { org_id: BigInt(orgId), uid: BigInt(uid) }, data: { is_public: isPublic } });
    },
    async userTeamIds(orgId, uid) {
      const rows = await tx.teamUser.findMany({ where: { org_id: BigInt(orgId), uid: BigInt(uid) }, select: { team_id: true }, orderBy: { team_id: 'asc' } });
      return rows.map((r) => Number(r.team_id));
    },
    async deleteOrg(orgId) {
      const id = BigInt(orgId);
      await tx.team.deleteMany({ where: { org_id: id } });
      await tx.orgUser.deleteMany({ where: { org_id: id } });
      await tx.orgSettings.deleteMany({ where: { org_id: id } });
      await tx.user.delete({ where: { id } });
    },
    async publish(event: IdentityEvent | OrgEvent) {
      const row = event.kind.startsWith('org.') || event.kind.startsWith('team.')
        ? orgOutboxRowOf(event as OrgEvent)
        : outboxRowOf(event as IdentityEvent);
      await tx.outboxEvent.create({ data: row });
      published.push(event);
    },
  };
}

export function orgStore(db: IdentityDb, options: IdentityStoreOptions = {}): OrgStore {
  const accounts = identityStore(db, options);
  return {
    ...accounts,
    ...orgReader(db),
    transaction: (work) => outboxTransaction(db, orgWriter, work, options),
  };
}
