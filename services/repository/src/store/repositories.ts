// Repositories and collaborations in PostgreSQL (tables `repository`, `collaboration`),
// with the outbox rows of their events written in the same transaction.
import { alreadyExists, insertEvents, outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { Owner } from '../domain/owner.js';
import type { CollaboratorMode } from '../domain/permission.js';
import { internalTrackerOf } from '../domain/internal-tracker.js';
import { pullRequestSettingsOf } from '../domain/pull-request-settings.js';
import type { Repository } from '../domain/repository.js';
import type { NewRepository, RepositoryEvent, RepositoryPatch, RepositoryReader, RepositoryStore, RepositoryWithOwner, RepositoryWriter, SearchFilter } from '../domain/store.js';
import { outboxRowOf } from '../events/repository-events.js';
import { eventFactsReader, type EventFactsReader } from './event-facts.js';
import { Prisma, type Repository as RepositoryRow } from './generated/client.js';
import { poolOf, queryRows, type RepositoryDb, type RepositoryTx } from './db.js';
import { refRowValues, withRefRow } from './git-refs.js';
import { memberTeamsOf, toMemberTeam } from './org-teams.js';
import { teamRepositoryReader, teamRepositoryWriter } from './team-repositories.js';
import { ownerReader, ownerRowFromJson, toOwner, type OwnerJson } from './owners.js';
import { dropRepositoryStars } from './stars.js';
import { assignableUsers } from './assignees.js';
import type { MemberTeam } from '../domain/org-access.js';

// Columns and fields share names (as the .proto's); only the encodings differ: bigint ids
// and size, the settings' JSON, and `lower_name`, which exists for lookups only.
export function toRepository(row: RepositoryRow): Repository {
  // issue_counts_version only orders the counts events (events/issue-count-consumer.ts).
  const { lower_name: _lower, issue_counts_version: _version, ...same } = row;
  return {
    ...same,
    id: Number(row.id),
    owner_id: Number(row.owner_id),
    size: Number(row.size),
    pull_request_settings: pullRequestSettingsOf(row.pull_request_settings),
    internal_tracker: internalTrackerOf(row.internal_tracker),
    topics: row.topics ?? [],
    branch_count: row.branch_count ?? 0,
    licenses: row.licenses ?? [],
    language: row.language ?? '',
    status: row.status === 'migrating' ? 'migrating' : 'ready',
    mirror_interval: Number(row.mirror_interval),
    fork_id: row.fork_id === null || row.fork_id === undefined ? null : Number(row.fork_id),
    num_forks: row.num_forks ?? 0,
  };
}

function toColumns(patch: RepositoryPatch): Prisma.RepositoryUpdateInput {
  const { name, size, pull_request_settings, internal_tracker, mirror_interval, ...same } = patch;
  const data: Prisma.RepositoryUpdateInput = { ...same };
  if (name !== undefined) { data.name = name; data.lower_name = name.toLowerCase(); }
  if (size !== undefined) data.size = BigInt(size);
  if (mirror_interval !== undefined) data.mirror_interval = BigInt(mirror_interval);
  if (pull_request_settings !== undefined) data.pull_request_settings = { ...pull_request_settings };
  if (internal_tracker !== undefined) data.internal_tracker = { ...internal_tracker };
  return data;
}

// to_jsonb() rows: bigints arrive as numbers, timestamps as ISO strings.
type RepositoryJson = Record<keyof RepositoryRow, unknown>;

function repositoryRowFromJson(json: RepositoryJson): RepositoryRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    ...(json as unknown as RepositoryRow),
    id: BigInt(json.id as number),
    owner_id: BigInt(json.owner_id as number),
    size: BigInt(json.size as number),
    mirror_interval: BigInt((json.mirror_interval as number | undefined) ?? 0),
    fork_id: json.fork_id === null || json.fork_id === undefined ? null : BigInt(json.fork_id as number),
    mirror_updated_at: date(json.mirror_updated_at),
    archived_at: date(json.archived_at),
    created_at: date(json.created_at)!,
    updated_at: date(json.updated_at)!,
  };
}

// The repository, its owner, the viewer's collaboration and the viewer's teams in the
// owning org (with whether each was given this repository): one statement per request.
// Only a signed-in viewer of an organization's repository can have teams there; the CASE
// spares every other lookup the subquery (a third of this statement's time in PostgreSQL).
// Gateways cache its answer until a table it reads changes: each of those tables carries the
// repository_access_changed trigger (migration 20261125090000); a table joined here needs it too.
const viewerFactsSql = (viewer: string) => `
  SELECT to_jsonb(r) AS repo, to_jsonb(o) AS owner, c.mode,
         CASE WHEN o.type = 'organization' AND ${viewer} > 0 THEN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'team_id', t.id, 'org_id', t.org_id, 'name', t.name, 'permission', t.permission, 'units_map', t.units_map,
                   'includes_all_repositories', t.includes_all_repositories, 'can_create_org_repo', t.can_create_org_repo,
                   'repository_ids', ARRAY(SELECT tr.repository_id FROM team_repository tr WHERE tr.team_id = t.id AND tr.repository_id = r.id))),
                 '[]'::jsonb)
            FROM org_team t JOIN org_team_member m ON m.team_id = t.id
           WHERE t.org_id = r.owner_id AND m.user_id = ${viewer}) END AS teams
    FROM repository r
    JOIN owner o ON o.id = r.owner_id
    LEFT JOIN collaboration c ON c.repository_id = r.id AND c.user_id = ${viewer}`;

const RESOLVE_REPOSITORY_SQL = `${viewerFactsSql('$3::bigint')}
   WHERE o.lower_name = $1 AND r.lower_name = $2`;

// The same facts for many repositories by id (lists naming repositories by id: a user's
// notifications, tracked times, stopwatches, stars): one statement instead of a search's six.
const RESOLVE_REPOSITORIES_SQL = `${viewerFactsSql('$2::bigint')}
   WHERE r.id = ANY($1::bigint[])`;

type ViewerFactsRow = { repo: RepositoryJson; owner: OwnerJson; mode: string | null; teams: Array<Record<string, unknown>> | null };

function withViewerFacts(row: ViewerFactsRow) {
  return {
    repository: toRepository(repositoryRowFromJson(row.repo)),
    owner: toOwner(ownerRowFromJson(row.owner)),
    collaboration: (row.mode ?? undefined) as CollaboratorMode | undefined,
    teams: (row.teams ?? []).map(toMemberTeam),
  };
}

const SORT_COLUMN: Record<SearchFilter['sort'], keyof RepositoryRow> = {
  id: 'id', alpha: 'lower_name', created: 'created_at', updated: 'updated_at', size: 'size', forks: 'num_forks', stars: 'num_stars',
};

/**
 * What the viewer may see, as a Prisma filter (the SQL twin of domain/permission.ts's read
 * rule): their own and shared repositories, and public ones of owners they may see.
 * `hiddenOwners` are owners whose profile the viewer may not see (private users; limited
 * ones for anonymous viewers) — few, so a NOT IN list is cheap.
 */
function visibleTo(filter: SearchFilter, hiddenOwners: bigint[], viewerTeams: MemberTeam[]): Prisma.RepositoryWhereInput | undefined {
  if (filter.viewerIsAdmin) return undefined;
  const own: Prisma.RepositoryWhereInput[] = filter.viewerId > 0
    ? [{ owner_id: BigInt(filter.viewerId) }, { collaborations: { some: { user_id: BigInt(filter.viewerId) } } }, ...teamAccess(viewerTeams)]
    : [];
  const publicRepos: Prisma.RepositoryWhereInput[] = filter.viewerRestricted
    ? []
    : [hiddenOwners.length ? { private: false, owner_id: { notIn: hiddenOwners } } : { private: false }];
  return { OR: [...publicRepos, ...own] };
}

/**
 * Repositories a user reaches through teams: every repository of an org where they are an
 * owner or in a team including all repositories, and those given to their teams.
 */
function teamAccess(teams: MemberTeam[]): Prisma.RepositoryWhereInput[] {
  if (!teams.length) return [];
  const wholeOrgs = [...new Set(teams.filter((t) => t.permission === 'owner' || t.includesAllRepositories).map((t) => BigInt(t.orgId)))];
  const conditions: Prisma.RepositoryWhereInput[] = [{ team_repositories: { some: { team_id: { in: teams.map((t) => BigInt(t.teamId)) } } } }];
  if (wholeOrgs.length) conditions.push({ owner_id: { in: wholeOrgs } });
  return conditions;
}

function whereOf(filter: SearchFilter, hiddenOwners: bigint[], viewerTeams: MemberTeam[], ownerTeams: MemberTeam[]): Prisma.RepositoryWhereInput {
  const and: Prisma.RepositoryWhereInput[] = [];
  const visible = visibleTo(filter, hiddenOwners, viewerTeams);
  if (visible) and.push(visible);
  if (filter.ids) and.push({ id: { in: filter.ids.map(BigInt) } });
  if (filter.q) and.push({ lower_name: { contains: filter.q.toLowerCase() } });
  if (filter.owner_id > 0) {
    const owner = BigInt(filter.owner_id);
    if (filter.onlyCollaborative) and.push({ collaborations: { some: { user_id: owner } } });
    else if (filter.includeCollaborative && !filter.exclusive) {
      and.push({ OR: [{ owner_id: owner }, { collaborations: { some: { user_id: owner } } }, ...teamAccess(ownerTeams)] });
    }
    else and.push({ owner_id: owner });
  }
  if (filter.visibility === 'public') and.push({ private: false });
  if (filter.visibility === 'private') and.push({ private: true });
  if (filter.archived !== undefined) and.push({ archived: filter.archived });
  if (filter.template !== undefined) and.push({ template: filter.template });
  if (filter.fork !== undefined) and.push({ fork_id: filter.fork ? { not: null } : null });
  if (filter.forkOf !== undefined) and.push({ fork_id: BigInt(filter.forkOf) });
  return and.length ? { AND: and } : {};
}

function reader(db: RepositoryDb | RepositoryTx): RepositoryReader {
  const owners = ownerReader(db);
  /** The filter of a search: what the viewer may see (their teams, owners hidden from them) and what they asked for. */
  async function searchWhere(filter: SearchFilter): Promise<Prisma.RepositoryWhereInput> {
    const viewerTeams = filter.viewerIsAdmin ? [] : await memberTeamsOf(db, filter.viewerId, undefined, []);
    const ownerTeams = !filter.includeCollaborative || filter.owner_id <= 0 ? []
      : filter.owner_id === filter.viewerId && !filter.viewerIsAdmin ? viewerTeams
        : await memberTeamsOf(db, filter.owner_id, undefined, []);
    // Organizations the viewer belongs to are not hidden from them, even private ones.
    const memberOrgs = new Set(viewerTeams.map((t) => BigInt(t.orgId)));
    const hidden = filter.viewerIsAdmin ? [] : await db.owner.findMany({
      where: { visibility: { in: filter.viewerId > 0 ? ['private'] : ['private', 'limited'] } },
      select: { id: true },
    });
    return whereOf(filter, hidden.map((o) => o.id).filter((id) => !memberOrgs.has(id)), viewerTeams, ownerTeams);
  }
  async function withOwners(rows: RepositoryRow[]): Promise<RepositoryWithOwner[]> {
    // One query for every owner on the page (no N+1).
    const ids = [...new Set(rows.map((r) => r.owner_id))];
    const ownerRows = ids.length ? await db.owner.findMany({ where: { id: { in: ids } } }) : [];
    const byId = new Map<bigint, Owner>(ownerRows.map((o) => [o.id, toOwner(o)]));
    return rows.flatMap((row) => {
      const owner = byId.get(row.owner_id);
      return owner ? [{ repository: toRepository(row), owner }] : [];
    });
  }
  return {
    ...teamRepositoryReader(db, toRepository),
    async findByName(ownerLogin, name) {
      const owner = await db.owner.findUnique({ where: { lower_name: ownerLogin.toLowerCase() } });
      if (!owner) return undefined;
      const row = await db.repository.findUnique({ where: { owner_id_lower_name: { owner_id: owner.id, lower_name: name.toLowerCase() } } });
      return row ? { repository: toRepository(row), owner: toOwner(owner) } : undefined;
    },
    async findByNameForViewer(ownerLogin, name, viewerId) {
      // One statement: repository, owner and the viewer's grant (performance.md rule 4).
      const values = [ownerLogin.toLowerCase(), name.toLowerCase(), BigInt(viewerId)] as const;
      const pool = poolOf(db);
      const rows: ViewerFactsRow[] = pool
        ? (await pool.query({ name: 'resolve-repository', text: RESOLVE_REPOSITORY_SQL, values: [values[0], values[1], String(values[2])] })).rows
        : await db.$queryRawUnsafe(RESOLVE_REPOSITORY_SQL, ...values);
      return rows[0] ? withViewerFacts(rows[0]) : undefined;
    },
    async findManyByIdForViewer(ids, viewerId) {
      if (!ids.length) return [];
      const values = [ids.map(String), String(viewerId)];
      const pool = poolOf(db);
      const rows: ViewerFactsRow[] = pool
        ? (await pool.query({ name: 'resolve-repositories', text: RESOLVE_REPOSITORIES_SQL, values })).rows
        : await db.$queryRawUnsafe(RESOLVE_REPOSITORIES_SQL, ...values);
      return rows.map(withViewerFacts);
    },
    async findById(id) {
      // Every push and every consumer of a push reads its repository by id: one prepared
      // statement on the pool where there is one (not inside a transaction).
      const [row] = await queryRows<{ repo: RepositoryJson; owner: OwnerJson }>(db, Prisma.sql`
        SELECT to_jsonb(r) AS repo, to_jsonb(o) AS owner FROM repository r JOIN owner o ON o.id = r.owner_id WHERE r.id = ${BigInt(id)}`, 'find-repository');
      return row ? { repository: toRepository(repositoryRowFromJson(row.repo)), owner: toOwner(ownerRowFromJson(row.owner)) } : undefined;
    },
    async findManyById(ids) {
      if (!ids.length) return [];
      return withOwners(await db.repository.findMany({ where: { id: { in: ids.map(BigInt) } } }));
    },
    async findForkOf(parentId, ownerId) {
      const row = await db.repository.findFirst({ where: { fork_id: BigInt(parentId), owner_id: BigInt(ownerId) } });
      return row ? toRepository(row) : undefined;
    },
    findOwnerByLogin: (login) => owners.findByLogin(login),
    findOwnerById: (id) => owners.findById(id),
    async collaborationOf(repositoryId, userId) {
      const row = await db.collaboration.findUnique({ where: { repository_id_user_id: { repository_id: BigInt(repositoryId), user_id: BigInt(userId) } } });
      return row?.mode as CollaboratorMode | undefined;
    },
    async collaborationsOf(repositoryIds, userId) {
      if (!repositoryIds.length) return new Map();
      const rows = await db.collaboration.findMany({ where: { user_id: BigInt(userId), repository_id: { in: repositoryIds.map(BigInt) } } });
      return new Map(rows.map((r) => [Number(r.repository_id), r.mode as CollaboratorMode]));
    },
    memberTeamsOf: (userId, orgIds, repositoryIds) => memberTeamsOf(db, userId, orgIds, repositoryIds),
    async countOwnedBy(ownerId) {
      return db.repository.count({ where: { owner_id: BigInt(ownerId) } });
    },
    async search(filter) {
      const where = await searchWhere(filter);
      const column = SORT_COLUMN[filter.sort];
      // id breaks ties so pages never shift.
      const orderBy: Prisma.RepositoryOrderByWithRelationInput[] = [{ [column]: filter.order }];
      if (column !== 'id') orderBy.push({ id: 'asc' });
      const [rows, total] = await Promise.all([
        db.repository.findMany({ where, orderBy, skip: filter.offset, take: filter.limit }),
        db.repository.count({ where }),
      ]);
      return { items: await withOwners(rows), total };
    },
    async visibleRepositories(filter, team) {
      const where = await searchWhere(filter);
      // A team that includes every repository of its organization needs no rows (the owner filter does it).
      const ofTeam: Prisma.RepositoryWhereInput = team && !team.includesAllRepositories ? { team_repositories: { some: { team_id: BigInt(team.teamId) } } } : {};
      const rows = await db.repository.findMany({ where: { AND: [where, ofTeam] }, select: { id: true, owner_id: true, owner_login: true, name: true }, orderBy: { id: 'asc' } });
      return rows.map((r) => ({ id: Number(r.id), ownerId: Number(r.owner_id), ownerLogin: r.owner_login, name: r.name }));
    },
    async findTeamByName(orgId, name) {
      const row = await db.orgTeam.findFirst({ where: { org_id: BigInt(orgId), name: { equals: name, mode: 'insensitive' } } });
      return row ? { teamId: Number(row.id), orgId: Number(row.org_id), includesAllRepositories: row.includes_all_repositories || row.permission === 'owner' } : undefined;
    },
    assignableUsers: (repositoryId) => assignableUsers(db, repositoryId),
    async listCollaborators(repositoryId, offset, limit) {
      const where = { repository_id: BigInt(repositoryId) };
      const [rows, total] = await Promise.all([
        db.collaboration.findMany({ where, orderBy: { user_id: 'asc' }, skip: offset, take: limit }),
        db.collaboration.count({ where }),
      ]);
      const users = rows.length ? await db.owner.findMany({ where: { id: { in: rows.map((r) => r.user_id) } } }) : [];
      const byId = new Map(users.map((u) => [u.id, toOwner(u)]));
      return {
        total,
        items: rows.flatMap((r) => {
          const user = byId.get(r.user_id);
          return user ? [{ userId: user.id, login: user.login, mode: r.mode as CollaboratorMode, user }] : [];
        }),
      };
    },
  };
}

/** The event's row with what its webhook payload shows beside the repository (store/event-facts.ts). */
async function outboxRowWithFacts(facts: EventFactsReader, event: RepositoryEvent) {
  if (!('repository' in event)) return outboxRowOf(event);
  const senderId = 'pusher' in event ? event.pusher.id : event.actorId;
  if (event.kind !== 'repo.forked') return outboxRowOf(event, await facts.factsOf(event.repository, senderId));
  // The fork's parent is the event's own `parent`: only its owner is wanted.
  const { repository_owner, sender } = await facts.factsOf({ ...event.repository, fork_id: null }, senderId);
  return outboxRowOf(event, { repository_owner, sender }, await facts.userOf(event.parent.owner_id));
}

export function writer(tx: RepositoryTx, published: RepositoryEvent[]): RepositoryWriter {
  const facts = eventFactsReader(tx, toRepository);
  return {
    ...reader(tx),
    ...teamRepositoryWriter(tx),
    async insert(data: NewRepository, creatorId: number) {
      try {
        const row = await tx.repository.create({
          data: {
            ...data, owner_id: BigInt(data.owner_id), lower_name: data.name.toLowerCase(), num_watches: creatorId > 0 ? 1 : 0,
            mirror_interval: data.mirror_interval === undefined ? undefined : BigInt(data.mirror_interval),
            internal_tracker: { ...data.internal_tracker },
          },
        });
        return toRepository(row);
      } catch (err) {
        if ((err as { code?: string }).code === 'P2002') throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
        throw err;
      }
    },
    async growSize(id, bytes) {
      await tx.repository.update({ where: { id: BigInt(id) }, data: { size: { increment: BigInt(bytes) } } });
    },
    async update(id, patch) {
      try {
        return toRepository(await tx.repository.update({ where: { id: BigInt(id) }, data: toColumns(patch) }));
      } catch (err) {
        if ((err as { code?: string }).code === 'P2002') throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
        throw err;
      }
    },
    async remove(id) {
      await dropRepositoryStars(tx, [BigInt(id)]);
      await tx.repository.delete({ where: { id: BigInt(id) } });
    },
    async setCollaboration(repositoryId, userId, mode) {
      const key = { repository_id: BigInt(repositoryId), user_id: BigInt(userId) };
      await tx.collaboration.upsert({ where: { repository_id_user_id: key }, create: { ...key, mode }, update: { mode } });
    },
    async removeCollaboration(repositoryId, userId) {
      const { count } = await tx.collaboration.deleteMany({ where: { repository_id: BigInt(repositoryId), user_id: BigInt(userId) } });
      return count > 0;
    },
    async publish(event) {
      await tx.outboxEvent.create({ data: await outboxRowWithFacts(facts, event) });
      published.push(event);
    },
  };
}

export function repositoryStore(db: RepositoryDb, options: OutboxStoreOptions = {}): RepositoryStore {
  return {
    ...reader(db),
    transaction: (work) => outboxTransaction(db, writer, work, options),
    async publishAlone(events, grown, ref) {
      if (!events.length && !grown) return false;
      const facts = eventFactsReader(db, toRepository);
      const rows = await Promise.all(events.map((event) => outboxRowWithFacts(facts, event)));
      const pool = poolOf(db);
      if (pool && rows.length && ref) {
        // The ref's row, the size and the events: one statement, one round trip.
        const values = [...refRowValues(ref.owner, ref.name, ref.row), ...(grown ? [grown.bytes, grown.repositoryId] : [])];
        const { rows: [answer] } = await pool.query<{ written: number }>({ text: withRefRow(insertEvents(rows, values).text, Boolean(grown)), values });
        options.onPublished?.();
        return answer?.written === 1;
      }
      if (pool && rows.length) {
        // One statement on the pool, the size growth in a CTE beside the events' insert.
        const values: unknown[] = grown ? [grown.bytes, grown.repositoryId] : [];
        const insert = insertEvents(rows, values);
        const text = grown ? `WITH grown AS (UPDATE repository SET size = size + $1, updated_at = now() WHERE id = $2) ${insert.text}` : insert.text;
        await pool.query({ text, values });
      } else {
        await db.$transaction([
          ...(grown ? [db.repository.update({ where: { id: BigInt(grown.repositoryId) }, data: { size: { increment: BigInt(grown.bytes) } } })] : []),
          ...(rows.length ? [db.outboxEvent.createMany({ data: rows })] : []),
        ]);
      }
      if (rows.length) options.onPublished?.();
      return false;
    },
  };
}

/** Keeps the owner login stored beside each repository in step with the owner read model. */
export async function renameOwnerRepositories(tx: RepositoryTx, ownerId: number, login: string): Promise<void> {
  await tx.repository.updateMany({ where: { owner_id: BigInt(ownerId) }, data: { owner_login: login } });
}

/**
 * Deletes every repository of a deleted owner inside the consumer's transaction, with a
 * repository.repo.deleted event for each (actor 0: the system, following identity).
 */
export async function removeOwnerRepositories(tx: RepositoryTx, ownerId: number): Promise<Repository[]> {
  const rows = await tx.repository.findMany({ where: { owner_id: BigInt(ownerId) }, orderBy: { id: 'asc' } });
  const repositories = rows.map(toRepository);
  const facts = eventFactsReader(tx, toRepository);
  for (const repository of repositories) {
    await tx.outboxEvent.create({ data: await outboxRowWithFacts(facts, { kind: 'repo.deleted', repository, actorId: 0 }) });
  }
  await dropRepositoryStars(tx, rows.map((row) => row.id));
  await tx.repository.deleteMany({ where: { owner_id: BigInt(ownerId) } });
  return repositories;
}
