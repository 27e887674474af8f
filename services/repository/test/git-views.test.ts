// Archive names and tag names: what a caller may ask for, and what can never reach git.
import { describe, expect, it } from '@jest/globals';
import { archiveFileName, parseArchiveName } from '../src/git/archive.js';
import { isValidTagName } from '../src/git/tags.js';

describe('archive names', () => {
  it.each([
    ['main.zip', 'main', 'zip'], ['v1.0.tar.gz', 'v1.0', 'tar.gz'], ['feature/x.bundle', 'feature/x', 'bundle'],
    ['0123456789abcdef0123456789abcdef01234567.zip', '0123456789abcdef0123456789abcdef01234567', 'zip'],
  ])('%s asks for %s as %s', (archive, ref, format) => {
    expect(parseArchiveName(archive)).toEqual({ ref, format });
  });

  it.each(['main.rar', 'main', '.zip', 'main.tar', 'main.gz'])('refuses %s', (archive) => {
    expect(parseArchiveName(archive)).toBeUndefined();
  });

  it('names the download like Gitea: <repo>-<ref, / as ->.<ext>', () => {
    expect(archiveFileName('shelf', { ref: 'feature/x', format: 'tar.gz' })).toBe('shelf-feature-x.tar.gz');
  });
});

describe('tag names', () => {
  it.each(['v1.0', 'release/2026-11', 'v1.0-rc.1'])('accepts %s', (name) => {
    expect(isValidTagName(name)).toBe(true);
  });

  it.each(['-v1', '--output=x', 'a..b', 'a b', 'x~1', 'x^', 'a:b', 'refs/tags/x', 'HEAD', 'x.lock', '', 'a//b', '.hidden', 'a@{1}'])('refuses %j', (name) => {
    expect(isValidTagName(name)).toBe(false);
  });
});
