import { describe, expect, it } from '@jest/globals';
import { defaultReadme, validateDescription, validateRepositoryName, validateWebsite } from '../src/domain/repository.js';

describe('repository names', () => {
  it.each(['hello', 'Hello-World', 'a.b_c', 'x', '1.0', '.hidden-ok', 'a'.repeat(100), '.profile', 'api', 'assets'])('accepts %s', (name) => {
    expect(() => validateRepositoryName(name)).not.toThrow();
  });

  it.each([
    ['', 'invalid_repo_name'],
    ['.', 'repo_name_reserved'],
    ['..', 'repo_name_chars_not_allowed'],
    ['a..b', 'repo_name_chars_not_allowed'],
    ['-', 'repo_name_reserved'],
    ['-rf', 'repo_name_chars_not_allowed'],
    ['project.git', 'repo_name_pattern_not_allowed'],
    ['Project.GIT', 'repo_name_pattern_not_allowed'],
    ['feed.rss', 'repo_name_pattern_not_allowed'],
    ['feed.atom', 'repo_name_pattern_not_allowed'],
    ['docs.wiki', 'repo_name_pattern_not_allowed'],
    ['has space', 'invalid_repo_name'],
    ['a/b', 'invalid_repo_name'],
    ['../etc', 'invalid_repo_name'],
    ['semi;colon', 'invalid_repo_name'],
    ['nul\u0000', 'invalid_repo_name'],
    ['ünïcode', 'invalid_repo_name'],
    ['a'.repeat(101), 'invalid_repo_name'],
  ])('refuses %j (%s) as invalid', (name, reason) => {
    expect(() => validateRepositoryName(name)).toThrow(expect.objectContaining({ kind: 'invalid', reason }));
  });

  it('accepts http(s) websites and an empty one, refuses anything else', () => {
    for (const ok of ['', 'https://example.com', 'http://example.com/x?y=1']) expect(() => validateWebsite(ok)).not.toThrow();
    for (const bad of ['example.com', 'javascript:alert(1)', 'ftp://example.com', `https://example.com/${'a'.repeat(1024)}`]) {
      expect(() => validateWebsite(bad)).toThrow(expect.objectContaining({ kind: 'invalid' }));
    }
    expect(() => validateDescription('d'.repeat(2049))).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });

  it('uses Gitea\'s Default README template', () => {
    expect(defaultReadme('demo', 'A demo')).toBe('# demo\n\nA demo\n');
  });
});

describe('validation messages', () => {
  it('name the JSON field as the client wrote it, never a Go struct field', () => {
    expect(() => validateRepositoryName('')).toThrow('[name]: Required');
    expect(() => validateRepositoryName('a b')).toThrow('[name]: AlphaDashDot');
    expect(() => validateRepositoryName('x'.repeat(101))).toThrow('[name]: MaxSize');
    expect(() => validateDescription('d'.repeat(2049))).toThrow(/^\[description\]: MaxSize/);
    expect(() => validateWebsite('not a url')).toThrow(/^\[website\]: /);
  });
});
