// What the organization and team rules need from storage, beside the account store they
// build on (an organization is an account row). Writes happen in one transaction with the
// outbox rows of their events, as for users.
import type { IdentityEvent, IdentityReader, IdentityWriter } from './store.js';
import type { AccessMode, UnitsMap } from './teams-units.js';
import type { Page, Paged, User, Visibility } from './user.js';

/** An organization: its account row and the settings only organizations have. */
export interface Org {
  account: User;
  repo_admin_change_team_access: boolean;
}

export interface Team {
  id: number;
  org_id: number;
  name: string;
  description: string;
  access_mode: AccessMode;
  units: UnitsMap;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
  visibility: Visibility;
}

export type TeamFields = Omit<Team, 'id'>;

export const OWNERS_TEAM_NAME = 'Owners';
export const isOwnersTeam = (team: Team): boolean => team.access_mode === 'owner';

export type OrgEvent =
  | { kind: 'org.created'; org: Org }
  | { kind: 'org.updated'; org: Org; previous_name?: string }
  | { kind: 'org.deleted'; org_id: number; name: string }
  | { kind: 'team.created'; team: Team }
  | { kind: 'team.updated'; team: Team }
  | { kind: 'team.deleted'; team_id: number; org_id: number; name: string }
  | { kind: 'team.member_added'; team_id: number; org_id: number; user_id: number }
  | { kind: 'team.member_removed'; team_id: number; org_id: number; user_id: number };

export interface TeamSearch {
  org_id: number;
  /** Case-insensitive substring of the name (and the description when `include_desc`). */
  keyword?: string;
  include_desc?: boolean;
  /** Only teams this user belongs to. */
  member_uid?: number;
  /** Only teams with one of these visibilities or that this user belongs to. */
  visible?: { visibilities: Visibility[]; member_uid: number };
  page: Page;
}

export interface OrgReader {
  orgByName(name: string): Promise<Org | undefined>;
  orgById(id: number): Promise<Org | undefined>;
  /** Organizations with one of the visibilities, by id. */
  listOrgs(visibilities: Visibility[], page: Page): Promise<Paged<Org>>;
  /** Organizations `uid` belongs to, by id. */
  userOrgs(uid: number, filter: { visibilities: Visibility[]; publicMembershipsOnly: boolean }, page: Page): Promise<Paged<Org>>;
  /** The ids of every organization the user belongs to. */
  membershipOrgIds(uid: number): Promise<number[]>;
  /** The user's membership of the organization, if any. */
  membership(orgId: number, uid: number): Promise<{ is_public: boolean } | undefined>;
  isOwner(orgId: number, uid: number): Promise<boolean>;
  /** Members, by id. */
  members(orgId: number, publicOnly: boolean, page: Page): Promise<Paged<User>>;
  teams(search: TeamSearch): Promise<Paged<Team>>;
  teamById(id: number): Promise<Team | undefined>;
  teamMembers(teamId: number, page: Page): Promise<Paged<User>>;
  isTeamMember(teamId: number, uid: number): Promise<boolean>;
  /** The user's teams in every organization, with their organizations. */
  userTeams(uid: number, page: Page): Promise<Paged<{ team: Team; org: Org }>>;
}

export interface OrgWriter extends Omit<IdentityWriter, 'publish'>, OrgReader {
  insertOrgSettings(orgId: number, repoAdminChangeTeamAccess: boolean): Promise<void>;
  updateOrgSettings(orgId: number, repoAdminChangeTeamAccess: boolean): Promise<void>;
  /** Locks the team row (membership changes of one team are serialized). */
  lockTeam(id: number): Promise<Team | undefined>;
  /** Throws UniqueViolation('team_name') when the organization has a team of that name. */
  insertTeam(fields: TeamFields): Promise<Team>;
  updateTeam(id: number, patch: Partial<TeamFields>): Promise<Team>;
  deleteTeam(id: number): Promise<void>;
  /** Adds the member (and the org membership); false when already a member. */
  addTeamMember(team: Team, uid: number): Promise<boolean>;
  /** Removes the member, and the org membership with their last team; false when not a member. */
  removeTeamMember(team: Team, uid: number): Promise<boolean>;
  teamMemberCount(teamId: number): Promise<number>;
  setMemberPublic(orgId: number, uid: number, isPublic: boolean): Promise<void>;
  /** The ids of the organization's teams the user belongs to. */
  userTeamIds(orgId: number, uid: number): Promise<number[]>;
  /** Removes the organization's teams, memberships, settings and account row. */
  deleteOrg(orgId: number): Promise<void>;
  publish(event: IdentityEvent | OrgEvent): Promise<void>;
}

export interface OrgStore extends OrgReader, IdentityReader {
  transaction<T>(work: (tx: OrgWriter) => Promise<T>): Promise<T>;
}
