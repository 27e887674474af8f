// Domain values → protobuf messages, shared by the gRPC service and the events.
import { timestamp, visibilityEnum, type identity, type repository as pb } from '@anvil/proto';
import type { Owner } from '../domain/owner.js';
import type { Repository } from '../domain/repository.js';
import { formatGoDuration } from '../domain/remote-address.js';


/** The owner as an identity User: the profile identity last sent, with the read model's current facts on top. */
export function ownerUserMessage(owner: Owner): identity.UserInput {
  return {
    ...((owner.profile ?? {}) as identity.UserInput),
    id: owner.id,
    login: owner.login,
    full_name: owner.fullName,
    email: owner.email,
    is_admin: owner.isAdmin,
    restricted: owner.restricted,
    visibility: visibilityEnum(owner.visibility),
    type: owner.type,
  };
}

export { timestamp } from '@anvil/proto';

export function repositoryMessage(r: Repository): pb.RepositoryInput {
  return {
    id: r.id,
    owner_id: r.owner_id,
    owner_login: r.owner_login,
    name: r.name,
    description: r.description,
    website: r.website,
    private: r.private,
    archived: r.archived,
    archived_at: r.archived_at ? timestamp(r.archived_at) : null,
    default_branch: r.default_branch,
    empty: r.empty,
    size: Math.ceil(r.size / 1024),
    object_format_name: r.object_format_name,
    template: r.template,
    has_issues: r.has_issues,
    has_wiki: r.has_wiki,
    has_pull_requests: r.has_pull_requests,
    has_projects: r.has_projects,
    has_releases: r.has_releases,
    has_packages: r.has_packages,
    has_actions: r.has_actions,
    has_code: r.has_code,
    created_at: timestamp(r.created_at),
    updated_at: timestamp(r.updated_at),
    language: r.language ?? '',
    pull_request_settings: r.pull_request_settings,
    internal_tracker: r.internal_tracker,
    topics: r.topics,
    branch_count: r.branch_count,
    licenses: r.licenses,
    num_watches: r.num_watches ?? 0,
    num_open_issues: r.num_open_issues ?? 0,
    num_open_pulls: r.num_open_pulls ?? 0,
    num_stars: r.num_stars ?? 0,
    avatar: r.avatar ?? '',
    status: r.status,
    mirror: r.mirror,
    mirror_interval: r.mirror ? formatGoDuration(r.mirror_interval) : '',
    mirror_updated_at: r.mirror && r.mirror_updated_at ? timestamp(r.mirror_updated_at) : null,
    original_url: r.original_url,
    fork_id: r.fork_id ?? 0,
    num_forks: r.num_forks ?? 0,
  };
}
