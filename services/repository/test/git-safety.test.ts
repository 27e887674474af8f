// Path and argument safety: no repository name reaches outside the storage root, and no
// user value reaches git where it could be read as an option.
import { describe, expect, it } from '@jest/globals';
import { git, isSafeRef, UnsafeArgument } from '../src/git/command.js';
import { RepositoryStorage, UnsafePath } from '../src/git/storage.js';

const storage = new RepositoryStorage('/srv/anvil/repositories');

describe('repository storage paths', () => {
  it('are <root>/<owner>/<name>.git, lower-cased', () => {
    expect(storage.pathOf('Alice', 'My-Repo')).toBe('/srv/anvil/repositories/alice/my-repo.git');
  });

  it.each([
    ['..', 'x'], ['alice', '..'], ['alice', '../bob/x'], ['alice', '/etc/passwd'], ['/etc', 'x'], ['alice', 'a/b'],
    ['alice', ''], ['', 'x'], ['alice', 'x\u0000y'], ['alice', '-rf'], ['alice', '.git'], ['alice', 'a\\b'], ['al ice', 'x'],
    ['alice', '..hidden'],
  ])('refuse %j/%j', (owner, name) => {
    expect(() => storage.pathOf(owner, name)).toThrow(UnsafePath);
  });

  it('need an absolute root', () => {
    expect(() => new RepositoryStorage('relative/root')).toThrow(UnsafePath);
  });
});

describe('the git command builder', () => {
  it('puts user values after --end-of-options', () => {
    const { args } = git('upload-pack').flag('--stateless-rpc').afterEndOfOptions('--upload-pack=evil').build();
    expect(args.slice(-3)).toEqual(['--stateless-rpc', '--end-of-options', '--upload-pack=evil']);
    expect(args).toContain('core.hooksPath=/dev/null');
  });

  it('refuses refs that git could read as options or that git forbids', () => {
    for (const bad of ['-x', '--output=/tmp/x', 'a..b', 'a b', 'a~1', 'a^', 'a:b', 'refs/heads/', '/a', 'a.lock', 'a@{1}', '.hidden', 'a//b', 'x\u0000']) {
      expect([bad, isSafeRef(bad)]).toEqual([bad, false]);
      expect(() => git('show-ref').ref(bad)).toThrow(UnsafeArgument);
    }
    expect(isSafeRef('refs/heads/feature/x-1')).toBe(true);
  });

  it('refuses refs over 255 bytes, counting UTF-8 bytes', () => {
    expect(isSafeRef('b'.repeat(255))).toBe(true);
    expect(isSafeRef('b'.repeat(256))).toBe(false);
    expect(isSafeRef('😀'.repeat(63))).toBe(true);
    expect(isSafeRef('😀'.repeat(64))).toBe(false);
    expect(isSafeRef('\uD800x')).toBe(false);
    expect(isSafeRef('b'.repeat(90_000))).toBe(false);
  });

  it('refuses non-option values in flag(), options in arg(), and non-hex object ids', () => {
    expect(() => git('log').flag('HEAD')).toThrow(UnsafeArgument);
    expect(() => git('log').arg('--all')).toThrow(UnsafeArgument);
    expect(() => git('log').oid('HEAD')).toThrow(UnsafeArgument);
    expect(() => git('log; rm -rf /')).toThrow(UnsafeArgument);
    expect(() => git('log').env('PATH', '/evil')).toThrow(UnsafeArgument);
  });
});
