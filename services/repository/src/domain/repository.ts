// A repository as the domain sees it, and Gitea's rules for its name.
import { forbidden, invalid } from '@anvil/kit';
import type { InternalTracker } from './internal-tracker.js';
import type { PullRequestSettings } from './pull-request-settings.js';

export interface Repository {
  id: number;
  owner_id: number;
  owner_login: string;
  name: string;
  description: string;
  website: string;
  private: boolean;
  archived: boolean;
  archived_at: Date | null;
  default_branch: string;
  empty: boolean;
  /** Bytes of git data. */
  size: number;
  object_format_name: string;
  template: boolean;
  has_issues: boolean;
  has_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  has_code: boolean;
  /** The pull request unit's settings, Gitea's defaults until edited. */
  pull_request_settings: PullRequestSettings;
  /** The built-in issue tracker's settings (time tracking, dependencies), Gitea's defaults until edited. */
  internal_tracker: InternalTracker;
  /** Lower case, sorted. */
  topics: string[];
  /** Counted from the refs table by each rewrite of it (store/git-refs.ts). */
  branch_count: number;
  /** SPDX ids of the default branch's license files (git-facts.ts). */
  licenses: string[];
  /** How many users watch it (events/watch-count-consumer.ts). */
  num_watches?: number;
  /** Open issues and open pulls (events/issue-count-consumer.ts). */
  num_open_issues?: number;
  num_open_pulls?: number;
  /** How many users star it (store/stars.ts). */
  num_stars?: number;
  /** The uploaded avatar's name (domain/avatars.ts); empty when none. */
  avatar?: string;
  created_at: Date;
  updated_at: Date;
  /** The default branch's top language (set by language statistics; '' until computed). */
  language?: string;
  /** Gitea's RepositoryStatus: `migrating` while a migration's clone runs, else `ready`. */
  status: RepositoryStatus;
  /** A pull mirror: its git data is the source's, so nothing but a sync writes to it. */
  mirror: boolean;
  /** Where a migrated repository came from, without credentials ('' when not migrated). */
  original_url: string;
  /** A mirror's milliseconds between syncs; 0 = only on request (the .proto prints it as a duration). */
  mirror_interval: number;
  /** When a mirror last synced successfully. */
  mirror_updated_at: Date | null;
  /** The repository it was forked from; null when it is no fork (or its parent was deleted). */
  fork_id?: number | null;
  /** How many forks it has (a counter the database keeps with the fork rows). */
  num_forks?: number;
}

export type RepositoryStatus = 'ready' | 'migrating';

/**
 * A pull mirror's git data is written by its syncs only (Gitea answers writes to one with
 * "Git Repository is a mirror.", a git push with "mirror repository is read-only"); a
 * repository still migrating has no git data to write to yet.
 */
export function refuseMirrorWrites(repository: Pick<Repository, 'mirror' | 'status'>): void {
  if (repository.mirror) throw forbidden('Git Repository is a mirror.', 'repo_is_mirror');
  if (repository.status === 'migrating') throw forbidden('repo is not ready, currently migrating', 'repo_migrating');
}

/** The unit names, as Gitea's EditRepoOption spells them, an edit may toggle. */
export const UNIT_FLAGS = ['has_issues', 'has_wiki', 'has_pull_requests', 'has_projects', 'has_releases', 'has_packages', 'has_actions', 'has_code'] as const;
export type UnitFlag = (typeof UNIT_FLAGS)[number];

// Gitea models/repo/repo.go: reservedRepoNames and reservedRepoPatterns.
const RESERVED_NAMES = new Set(['.', '..', '-']);
const RESERVED_SUFFIXES = ['.git', '.rss', '.atom', '.wiki'];
const MAX_NAME_LENGTH = 100;
// Gitea's binding `AlphaDashDot`: letters, digits, `-`, `_` and `.`.
const ALPHA_DASH_DOT = /^[-.\w]+$/;
// Gitea's invalidRepoNamePattern: two dots in a row are refused whatever surrounds them.
const CONSECUTIVE_DOTS = /\.{2,}/;

/** Throws Gitea's 422 errors for a name that cannot be a repository name. */
export function validateRepositoryName(name: string): void {
  if (!name) throw invalid('[name]: Required', 'invalid_repo_name');
  if (name.length > MAX_NAME_LENGTH) throw invalid('[name]: MaxSize', 'invalid_repo_name');
  if (!ALPHA_DASH_DOT.test(name)) throw invalid('[name]: AlphaDashDot', 'invalid_repo_name');
  // Checked before the reserved names, as Gitea does: `..` is "invalid", not "reserved".
  if (CONSECUTIVE_DOTS.test(name)) {
    throw invalid(`name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`, 'repo_name_chars_not_allowed');
  }
  const lower = name.toLowerCase();
  // Gitea accepts `-x`; Anvil refuses a leading dash so no name can ever read as an option.
  if (name.startsWith('-') && !RESERVED_NAMES.has(lower)) {
    throw invalid(`name is invalid [${name}]: must not start with a dash`, 'repo_name_chars_not_allowed');
  }
  if (RESERVED_NAMES.has(lower)) throw invalid(`name is reserved [name: ${lower}]`, 'repo_name_reserved');
  const suffix = RESERVED_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) throw invalid(`name pattern is not allowed [pattern: *${suffix}]`, 'repo_name_pattern_not_allowed');
}

/** The same rules for a rename, with the messages Gitea's repository edit answers. */
export function validateNewRepositoryName(name: string): void {
  try {
    validateRepositoryName(name);
  } catch (err) {
    const reason = (err as { reason?: string }).reason;
    if (reason === 'repo_name_reserved') throw invalid(`repo name is reserved [name: ${name}]`, reason);
    if (reason === 'repo_name_pattern_not_allowed') {
      const suffix = RESERVED_SUFFIXES.find((s) => name.toLowerCase().endsWith(s));
      throw invalid(`repo name's pattern is not allowed [name: ${name}, pattern: *${suffix}]`, reason);
    }
    throw err;
  }
}

/** Gitea's binding rules for a repository's description (MaxSize(2048)). */
export function validateDescription(description: string): void {
  if (description.length > 2048) throw invalid('[description]: MaxSize', 'invalid_description');
}

/** Gitea's binding rules for a website: ValidUrl, MaxSize(1024); empty clears it. */
export function validateWebsite(website: string): void {
  if (!website) return;
  if (website.length > 1024) throw invalid('[website]: MaxSize', 'invalid_website');
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    throw invalid('[website]: Invalid url', 'invalid_website');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('[website]: Invalid url', 'invalid_website');
}

/** Gitea's "Default" README template. */
export function defaultReadme(name: string, description: string): string {
  return `# ${name}\n\n${description}\n`;
}
