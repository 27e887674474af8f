// The one git runner: a repository whose directory vanished while a request ran (renamed
// or deleted by another request) is the caller's 404, not an internal error; other git
// failures stay GitErrors for the caller to interpret. Real git.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { git, GitError, RepositoryGone, runGit } from '../src/git/command.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-git-runner-'));
  await runGit(git('init').flag('--bare', '--quiet').arg(join(dir, 'here.git')).build());
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('running git', () => {
  it('reports a repository directory that is gone as not found', async () => {
    const err = await runGit(git('for-each-ref', { gitDir: join(dir, 'gone.git') }).build()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryGone);
    expect((err as DomainError).kind).toBe('not_found');
  });

  it('keeps other failures as GitErrors', async () => {
    const err = await runGit(git('rev-parse', { gitDir: join(dir, 'here.git') }).flag('--verify').arg('nope').build()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
  });
});
