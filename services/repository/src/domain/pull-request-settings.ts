// The pull request unit's settings (Gitea's PullRequestsConfig), named as its EditRepoOption
// and Repository JSON name them from the table to the JSON. Pull request merges honour them.
import { invalid } from '@anvil/kit';

export interface PullRequestSettings {
  ignore_whitespace_conflicts: boolean;
  allow_merge_commits: boolean;
  allow_rebase: boolean;
  allow_rebase_explicit: boolean;
  allow_squash_merge: boolean;
  allow_fast_forward_only_merge: boolean;
  allow_manual_merge: boolean;
  autodetect_manual_merge: boolean;
  allow_rebase_update: boolean;
  allow_merge_update: boolean;
  default_delete_branch_after_merge: boolean;
  default_allow_maintainer_edit: boolean;
  default_merge_style: string;
  default_update_style: string;
}

export type PullRequestSettingsEdit = Partial<PullRequestSettings>;

/** Gitea's models/repo MergeStyle values. */
export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
/** Gitea's UpdateStyle values. */
export const UPDATE_STYLES = ['merge', 'rebase'] as const;

/** What Gitea gives a new repository's pull request unit (services/repository/create.go). */
export const DEFAULT_PULL_REQUEST_SETTINGS: Readonly<PullRequestSettings> = Object.freeze({
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_manual_merge: false,
  autodetect_manual_merge: false,
  allow_rebase_update: true,
  allow_merge_update: true,
  default_delete_branch_after_merge: false,
  default_allow_maintainer_edit: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
});

const KEYS = Object.keys(DEFAULT_PULL_REQUEST_SETTINGS) as Array<keyof PullRequestSettings>;

/** The settings a stored value holds, Gitea's defaults for any it lacks (rows older than the column hold `{}`). */
export function pullRequestSettingsOf(stored: unknown): PullRequestSettings {
  const settings: PullRequestSettings = { ...DEFAULT_PULL_REQUEST_SETTINGS };
  if (!stored || typeof stored !== 'object') return settings;
  const record = stored as Record<string, unknown>;
  for (const key of KEYS) {
    const value = record[key];
    if (typeof value === typeof DEFAULT_PULL_REQUEST_SETTINGS[key]) (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** `current` with the edit's settings; a merge or update style Gitea does not know is 422 naming the field. */
export function editPullRequestSettings(current: PullRequestSettings, edit: PullRequestSettingsEdit): PullRequestSettings {
  const style = edit.default_merge_style;
  if (style !== undefined && !(MERGE_STYLES as readonly string[]).includes(style)) {
    throw invalid(`[default_merge_style]: must be one of ${MERGE_STYLES.join(', ')}`, 'invalid_merge_style');
  }
  const update = edit.default_update_style;
  if (update !== undefined && !(UPDATE_STYLES as readonly string[]).includes(update)) {
    throw invalid(`[default_update_style]: must be one of ${UPDATE_STYLES.join(', ')}`, 'invalid_update_style');
  }
  const next = { ...current };
  for (const key of KEYS) if (edit[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = edit[key];
  return next;
}

/** The setting that allows each merge style (Gitea's PullRequestsConfig.IsMergeStyleAllowed). */
const STYLE_SETTINGS: Readonly<Record<string, keyof PullRequestSettings>> = {
  merge: 'allow_merge_commits',
  rebase: 'allow_rebase',
  'rebase-merge': 'allow_rebase_explicit',
  squash: 'allow_squash_merge',
  'fast-forward-only': 'allow_fast_forward_only_merge',
  'manually-merged': 'allow_manual_merge',
};

export function isMergeStyleAllowed(settings: PullRequestSettings, style: string): boolean {
  const key = STYLE_SETTINGS[style];
  return key !== undefined && settings[key] === true;
}
