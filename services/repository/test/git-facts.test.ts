import { describe, expect, it } from '@jest/globals';
import { backfillGitFacts, licensesUntouched, refreshGitFacts, type GitFacts, type GitFactsDeps, type GitFactsReader } from '../src/domain/git-facts.js';
import { LicenseDetector } from '../src/domain/licenses.js';
import type { RepositoryStore } from '../src/domain/store.js';

const MIT = 'Permission is hereby granted, free of charge, to any person obtaining a copy of this software';

function depsWith(repositories: Record<number, { name: string; license?: string }>) {
  const saved = new Map<number, GitFacts>();
  const deps: GitFactsDeps = {
    store: {
      findById: async (id: number) => (repositories[id]
        ? { repository: { id, name: repositories[id]!.name, default_branch: 'main' }, owner: { login: 'ada' } }
        : undefined),
    } as unknown as RepositoryStore,
    git: {
      licenseFiles: async (_owner, name) => {
        const license = Object.values(repositories).find((r) => r.name === name)!.license;
        return license ? [{ name: 'LICENSE', text: license }] : [];
      },
      licenseEntries: async () => [],
    },
    facts: {
      save: async (id, facts) => { saved.set(id, facts); },
      idsWithoutFacts: async (after, limit) => Object.keys(repositories).map(Number).filter((id) => id > after && !saved.has(id)).slice(0, limit),
    },
    detector: new LicenseDetector(() => ({ MIT: { licenseText: MIT } })),
  };
  return { deps, saved };
}

describe('git facts', () => {
  it('records the licenses of the default branch', async () => {
    const { deps, saved } = depsWith({ 1: { name: 'app', license: MIT } });
    expect(await refreshGitFacts(deps, 1)).toEqual({ licenses: ['MIT'] });
    expect(saved.get(1)).toEqual({ licenses: ['MIT'] });
    expect(await refreshGitFacts(deps, 99)).toBeUndefined();
  });

  it('fills in every repository that has none at start, each once, even one without a license', async () => {
    const { deps, saved } = depsWith({ 1: { name: 'a' }, 2: { name: 'b' }, 3: { name: 'c', license: MIT } });
    expect(await backfillGitFacts(deps, () => undefined)).toBe(3);
    expect([...saved.keys()].sort()).toEqual([1, 2, 3]);
    expect(saved.get(3)).toEqual({ licenses: ['MIT'] });
  });

  describe('a push that leaves the license files at the root as they were', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((x) => x.repeat(40));
    /** The license entries of each commit, as `name sha`; an unknown commit cannot be read. */
    const reader = (trees: Record<string, string[]>): GitFactsReader => ({
      licenseFiles: async () => [],
      licenseEntries: async (_owner, _name, commit) => {
        if (!trees[commit]) throw new Error(`no commit ${commit}`);
        return trees[commit]!;
      },
    });
    const app = { owner: 'ada', name: 'app' };

    it('needs no new reading when names and contents are the same', async () => {
      expect(await licensesUntouched(reader({ [a]: ['LICENSE 111'], [b]: ['LICENSE 111'] }), app, a, b)).toBe(true);
      expect(await licensesUntouched(reader({ [a]: [], [b]: [] }), app, a, b)).toBe(true);
    });

    it('is read again when a license file was added, changed, renamed or removed', async () => {
      expect(await licensesUntouched(reader({ [a]: ['LICENSE 111'], [b]: ['COPYING 222', 'LICENSE 111'] }), app, a, b)).toBe(false);
      expect(await licensesUntouched(reader({ [a]: ['LICENSE 111'], [b]: ['LICENSE 333'] }), app, a, b)).toBe(false);
      expect(await licensesUntouched(reader({ [a]: ['LICENSE 111'], [b]: ['LICENSE.md 111'] }), app, a, b)).toBe(false);
      expect(await licensesUntouched(reader({ [a]: ['LICENSE 111'], [b]: [] }), app, a, b)).toBe(false);
    });

    it('is read again for a new or deleted branch, or when a side cannot be read', async () => {
      const zero = '0'.repeat(40);
      const same = reader({ [a]: ['LICENSE 111'], [b]: ['LICENSE 111'] });
      expect(await licensesUntouched(same, app, zero, b)).toBe(false);
      expect(await licensesUntouched(same, app, a, zero)).toBe(false);
      expect(await licensesUntouched(same, app, a, c)).toBe(false);
    });
  });
});
