// Domain values → protobuf messages, shared by the gRPC service and the events.
import type { repository as pb } from '@anvil/proto';
import type { identity } from '@anvil/proto';
import type { Owner } from '../domain/owner.js';
import type { Repository } from '../domain/repository.js';
import { formatGoDuration } from '../domain/remote-address.js';

const VISIBILITY = { public: 'VISIBILITY_PUBLIC', limited: 'VISIBILITY_LIMITED', private: 'VISIBILITY_PRIVATE' } as const;

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
    visibility: VISIBILITY[owner.visibility],
    type: owner.type,
  };
}

export function timestamp(date: Date): { seconds: number; nanos: number } {
  const ms = date.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

export function repositoryMessage(r: Repository): pb.RepositoryInput {
  return {
    id: r.id,
    owner_id: r.ownerId,
    owner_login: r.ownerLogin,
    name: r.name,
    description: r.description,
    website: r.website,
    private: r.isPrivate,
    archived: r.isArchived,
    archived_at: r.archivedAt ? timestamp(r.archivedAt) : null,
    default_branch: r.defaultBranch,
    empty: r.isEmpty,
    size: Math.ceil(r.size / 1024),
    object_format_name: r.objectFormatName,
    is_template: r.isTemplate,
    has_issues: r.hasIssues,
    has_wiki: r.hasWiki,
    has_pull_requests: r.hasPullRequests,
    has_projects: r.hasProjects,
    has_releases: r.hasReleases,
    has_packages: r.hasPackages,
    has_actions: r.hasActions,
    has_code: r.hasCode,
    created: timestamp(r.createdAt),
    updated: timestamp(r.updatedAt),
    language: r.language ?? '',
    pull_request_settings: r.pullRequestSettings,
    topics: r.topics,
    branch_count: r.branchCount,
    licenses: r.licenses,
    status: r.status,
    mirror: r.isMirror,
    mirror_interval: r.isMirror ? formatGoDuration(r.mirrorIntervalMs) : '',
    mirror_updated: r.isMirror && r.mirrorUpdatedAt ? timestamp(r.mirrorUpdatedAt) : null,
    original_url: r.originalUrl,
  };
}
