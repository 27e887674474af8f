import { describe, expect, it } from '@jest/globals';
import { DEFAULT_PULL_REQUEST_SETTINGS, editPullRequestSettings, pullRequestSettingsOf } from '../src/domain/pull-request-settings.js';

describe('pull request settings', () => {
  it('gives a repository that never set them Gitea\'s defaults for a new repository', () => {
    expect(pullRequestSettingsOf({})).toEqual(DEFAULT_PULL_REQUEST_SETTINGS);
    expect(pullRequestSettingsOf(null)).toMatchObject({ allow_merge_commits: true, allow_manual_merge: false, default_merge_style: 'merge' });
  });

  it('keeps stored settings and ignores values of the wrong type', () => {
    const settings = pullRequestSettingsOf({ allow_rebase: false, default_merge_style: 'squash', allow_squash_merge: 'no' });
    expect(settings).toMatchObject({ allow_rebase: false, default_merge_style: 'squash', allow_squash_merge: true });
  });

  it('changes only what an edit names', () => {
    const edited = editPullRequestSettings(DEFAULT_PULL_REQUEST_SETTINGS, { allow_rebase: false, default_merge_style: 'rebase-merge' });
    expect(edited).toEqual({ ...DEFAULT_PULL_REQUEST_SETTINGS, allow_rebase: false, default_merge_style: 'rebase-merge' });
  });

  it('refuses a merge or update style Gitea does not know, naming the JSON field', () => {
    expect(() => editPullRequestSettings(DEFAULT_PULL_REQUEST_SETTINGS, { default_merge_style: 'octopus' })).toThrow(/^\[default_merge_style\]: must be one of merge, rebase/);
    expect(() => editPullRequestSettings(DEFAULT_PULL_REQUEST_SETTINGS, { default_update_style: 'squash' })).toThrow(/^\[default_update_style\]/);
  });
});
