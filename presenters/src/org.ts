// identity.Organization → Gitea's Organization JSON (services/convert ToOrganization).
import type { identity } from '@anvil/proto';
import { avatarUrl, visibilityName } from './user.js';

export function presentOrg(org: identity.Organization, rootUrl: string) {
  const account = org.account!;
  return {
    id: account.id,
    name: account.login,
    full_name: account.full_name,
    email: account.email,
    avatar_url: avatarUrl(account, rootUrl),
    description: account.description,
    website: account.website,
    location: account.location,
    visibility: visibilityName(account.visibility),
    repo_admin_change_team_access: org.repo_admin_change_team_access,
    // Gitea's Organization keeps the deprecated `username` (= name) for older clients.
    username: account.login,
  };
}
