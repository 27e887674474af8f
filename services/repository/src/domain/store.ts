// How the repository domain reads and writes its data; src/store/repositories.ts implements
// it over Prisma. Writes happen only inside a transaction, together with the outbox rows
// of their events.
import type { RefRowWrite } from './git-refs.js';
import type { MemberTeam } from './org-access.js';
import type { Owner } from './owner.js';
import type { CollaboratorMode } from './permission.js';
import type { Repository } from './repository.js';

export interface RepositoryWithOwner {
  repository: Repository;
  owner: Owner;
}

export interface SearchFilter {
  /** The caller's user id (0 = anonymous) and whether they may see everything. */
  viewerId: number;
  viewerIsAdmin: boolean;
  viewerRestricted: boolean;
  q: string;
  owner_id: number;
  exclusive: boolean;
  /** With ownerId: also repositories the owner collaborates on. */
  includeCollaborative: boolean;
  visibility: '' | 'public' | 'private';
  archived?: boolean;
  template?: boolean;
  /** Only repositories ownerId collaborates on (mode=collaborative). */
  onlyCollaborative: boolean;
  sort: 'id' | 'alpha' | 'created' | 'updated' | 'size' | 'forks' | 'stars';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Only these repositories (another service's list, e.g. the ones a user watches). */
  ids?: number[];
  /** Only forks (true) or only repositories that are no fork (false): mode=fork / mode=source. */
  fork?: boolean;
  /** Only the forks of this repository (GET /repos/{o}/{r}/forks). */
  forkOf?: number;
}

export interface CollaboratorRow {
  userId: number;
  login: string;
  mode: CollaboratorMode;
  user: Owner;
}

export type NewRepository = Omit<Repository, 'id' | 'created_at' | 'updated_at' | 'archived_at' | 'size' | 'empty' | 'pull_request_settings' | 'topics' | 'branch_count' | 'licenses' | MigrationFields>
  & Partial<Pick<Repository, MigrationFields>>;
/** What only a migration sets on a new repository (ready, no mirror, no source by default). */
type MigrationFields = 'status' | 'mirror' | 'original_url' | 'mirror_interval' | 'mirror_updated_at';
export type RepositoryPatch = Partial<Omit<Repository, 'id' | 'owner_id' | 'owner_login' | 'created_at' | 'updated_at'>>;

export type RepositoryEvent =
  | { kind: 'repo.created' | 'repo.updated' | 'repo.deleted'; repository: Repository; actorId: number; actorLogin?: string }
  /** `permission`: the actor's on the fork; `parentPermission`: theirs on the parent (for the fork webhook). */
  | { kind: 'repo.forked'; repository: Repository; parent: Repository; actorId: number; actorLogin?: string; permission: string; parentPermission: string }
  | { kind: 'collaborator.added'; repositoryId: number; userId: number; mode: CollaboratorMode; actorId: number }
  | { kind: 'collaborator.removed'; repositoryId: number; userId: number; actorId: number }
  | { kind: 'push'; repository: Repository; push: import('./push.js').RefPush; pusher: { id: number; login: string } }
  | { kind: 'branch.created' | 'branch.deleted' | 'tag.created' | 'tag.deleted'; repository: Repository; name: string; ref: string; sha: string; pusher: { id: number; login: string } };

/** A team as identity describes it, enough to find its repositories. */
export interface TeamScope {
  teamId: number;
  orgId: number;
  includesAllRepositories: boolean;
}

export interface TeamRepositoryReader {
  teamHasRepository(team: TeamScope, repositoryId: number): Promise<boolean>;
  /** Ordered by id. */
  listTeamRepositories(team: TeamScope, offset: number, limit: number): Promise<{ items: Repository[]; total: number }>;
}

export interface TeamRepositoryWriter {
  /** A no-op when the team has it already. */
  addTeamRepository(team: TeamScope, repositoryId: number): Promise<void>;
  removeTeamRepository(team: TeamScope, repositoryId: number): Promise<void>;
}

export interface RepositoryReader extends TeamRepositoryReader {
  findByName(ownerLogin: string, name: string): Promise<RepositoryWithOwner | undefined>;
  /** findByName plus the viewer's collaborator grant, in one statement (the hot path of every repository route). */
  findByNameForViewer(ownerLogin: string, name: string, viewerId: number): Promise<(RepositoryWithOwner & { collaboration?: CollaboratorMode; teams: MemberTeam[] }) | undefined>;
  /** findByNameForViewer for many repositories by id, in one statement; missing ids are left out, the order is the database's. */
  findManyByIdForViewer(ids: number[], viewerId: number): Promise<Array<RepositoryWithOwner & { collaboration?: CollaboratorMode; teams: MemberTeam[] }>>;
  /** The teams userId belongs to (in orgIds; every org when undefined), with which of repositoryIds each was given. */
  memberTeamsOf(userId: number, orgIds: number[] | undefined, repositoryIds: number[]): Promise<MemberTeam[]>;
  findById(id: number): Promise<RepositoryWithOwner | undefined>;
  /** Many repositories with their owners in two statements (a page's parents); missing ids are left out. */
  findManyById(ids: number[]): Promise<RepositoryWithOwner[]>;
  /** The fork of `parentId` that `ownerId` owns, if any (Gitea's GetUserFork). */
  findForkOf(parentId: number, ownerId: number): Promise<Repository | undefined>;
  findOwnerByLogin(login: string): Promise<Owner | undefined>;
  findOwnerById(id: number): Promise<Owner | undefined>;
  collaborationOf(repositoryId: number, userId: number): Promise<CollaboratorMode | undefined>;
  /** The viewer's grants on many repositories at once (lists: no N+1). */
  collaborationsOf(repositoryIds: number[], userId: number): Promise<Map<number, CollaboratorMode>>;
  countOwnedBy(ownerId: number): Promise<number>;
  search(filter: SearchFilter): Promise<{ items: RepositoryWithOwner[]; total: number }>;
  listCollaborators(repositoryId: number, offset: number, limit: number): Promise<{ items: CollaboratorRow[]; total: number }>;
  /** Every repository matching the search filter (no paging), ids and names only; with a team, only the team's. */
  visibleRepositories(filter: SearchFilter, team?: TeamScope): Promise<VisibleRepository[]>;
  /** An organization's team by name, case-insensitively. */
  findTeamByName(orgId: number, name: string): Promise<TeamScope | undefined>;
  /** Users who may be assigned to the repository's issues (Gitea's GetRepoAssignees), ordered by login. */
  assignableUsers(repositoryId: number): Promise<Owner[]>;
}

export interface VisibleRepository {
  id: number;
  ownerId: number;
  ownerLogin: string;
  name: string;
}

export interface RepositoryWriter extends RepositoryReader, TeamRepositoryWriter {
  /**
   * Throws already_exists when the owner has a repository of that name. `creatorId` (0 for
   * the system) watches it from the start, as in Gitea: the row counts that watch already,
   * and collaboration records it when it hears of the repository's creation.
   */
  insert(data: NewRepository, creatorId: number): Promise<Repository>;
  update(id: number, patch: RepositoryPatch): Promise<Repository>;
  /** Adds `bytes` to the repository's size (objects a write added, without re-measuring). */
  growSize(id: number, bytes: number): Promise<void>;
  remove(id: number): Promise<void>;
  setCollaboration(repositoryId: number, userId: number, mode: CollaboratorMode): Promise<void>;
  removeCollaboration(repositoryId: number, userId: number): Promise<boolean>;
  publish(event: RepositoryEvent): Promise<void>;
}

export interface RepositoryStore extends RepositoryReader {
  transaction<T>(work: (tx: RepositoryWriter) => Promise<T>): Promise<T>;
  /**
   * Writes events that go with no change of the store's rows (a ref move: git holds the
   * change), in one statement, in this order; what they show beside the repository (its
   * owner, the sender) is read before it. Atomic as a transaction is, for fewer round trips.
   * `grown`: the one row change such a move may carry, the repository's size grown by the
   * objects the write added, made in the same statement. `ref`: the moved ref's row
   * (write-turn.ts takeRefRow), written in that statement too; the answer says whether it
   * was (false as well without `ref`, and for a repository whose rows were never written).
   */
  publishAlone(events: RepositoryEvent[], grown?: { repositoryId: number; bytes: number }, ref?: RefRowWrite): Promise<boolean>;
}
