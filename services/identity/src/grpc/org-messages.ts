// Organization and team records → protobuf messages (gRPC replies and event payloads share them).
import type { identity } from '@anvil/proto';
import type { Org, Team } from '../domain/orgs-store.js';
import { userMessage } from './messages.js';

export function orgMessage(org: Org): identity.OrganizationInput {
  return { account: userMessage(org.account), repo_admin_change_team_access: org.repo_admin_change_team_access };
}

export function teamMessage(team: Team, org?: Org): identity.TeamInput {
  return {
    id: team.id,
    org_id: team.org_id,
    name: team.name,
    description: team.description,
    permission: team.access_mode,
    units_map: { ...team.units },
    includes_all_repositories: team.includes_all_repositories,
    can_create_org_repo: team.can_create_org_repo,
    visibility: team.visibility,
    organization: org ? orgMessage(org) : null,
  };
}
