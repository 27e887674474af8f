// The contents API's rules that need no git: which paths may be read or written, Gitea's
// default commit messages, sign-off, and who authors an API commit.
import { describe, expect, it } from '@jest/globals';
import { cleanReadPath, contentTypeOf } from '../src/domain/contents.js';
import { commitMessage, defaultCommitMessage, identities, isWritablePath } from '../src/domain/file-changes.js';

describe('paths', () => {
  it('writes only relative paths without empty, dot, dot-dot or .git segments and without control characters', () => {
    for (const ok of ['a.txt', 'docs/guide/intro.md', '.github/workflows/ci.yml', 'weird name (1).txt', 'a..b', '.gitignore']) expect(isWritablePath(ok)).toBe(true);
    for (const bad of ['', '/abs', 'a//b', 'a/', './a', 'a/./b', '../x', 'a/../../x', '.git/config', 'x/.GIT/hooks', 'nul\0byte', 'line\nbreak']) {
      expect(isWritablePath(bad)).toBe(false);
    }
  });

  it('reads the root for "", "." and "/", tidies slashes, and refuses what cannot name an entry', () => {
    expect(cleanReadPath('')).toBe('');
    expect(cleanReadPath('.')).toBe('');
    expect(cleanReadPath('/docs//a.md/')).toBe('docs/a.md');
    expect(cleanReadPath('../etc/passwd')).toBeUndefined();
    expect(cleanReadPath('.git/config')).toBeUndefined();
  });

  it('tells files, executables, symlinks, directories and submodules apart by mode', () => {
    expect(contentTypeOf({ mode: '100644', type: 'blob' })).toBe('file');
    expect(contentTypeOf({ mode: '100755', type: 'blob' })).toBe('file');
    expect(contentTypeOf({ mode: '120000', type: 'blob' })).toBe('symlink');
    expect(contentTypeOf({ mode: '040000', type: 'tree' })).toBe('dir');
    expect(contentTypeOf({ mode: '160000', type: 'commit' })).toBe('submodule');
  });
});

describe('commit messages', () => {
  it('defaults to Gitea\'s Add/Update/Delete lines, renames and uploads counting as updates', () => {
    expect(defaultCommitMessage([{ operation: 'create', path: 'a.txt' }])).toBe('Add a.txt');
    expect(defaultCommitMessage([
      { operation: 'create', path: 'a' }, { operation: 'create', path: 'b' }, { operation: 'rename', path: 'c' },
      { operation: 'upload', path: 'd' }, { operation: 'delete', path: 'e' },
    ])).toBe('Add a, b\nUpdate c, d\nDelete e');
  });

  it('ends with one newline and signs off as the committer', () => {
    expect(commitMessage('  Fix it \n\n', false, { name: 'A', email: 'a@x' })).toBe('Fix it\n');
    expect(commitMessage('Fix it', true, { name: 'Grace', email: 'g@x' })).toBe('Fix it\n\nSigned-off-by: Grace <g@x>\n');
  });
});

describe('author and committer', () => {
  const doer = { name: 'Doer', email: 'doer@example.com' };
  it('uses the caller when neither is given, and one given for the other', () => {
    expect(identities({}, doer)).toEqual({ author: doer, committer: doer });
    const grace = { name: 'Grace', email: 'g@x' };
    expect(identities({ author: grace }, doer)).toEqual({ author: grace, committer: grace });
    expect(identities({ committer: grace }, doer)).toEqual({ author: grace, committer: grace });
    expect(identities({ author: grace, committer: { name: '', email: '' } }, doer)).toEqual({ author: grace, committer: grace });
    expect(identities({ author: { name: 'OnlyName', email: '' } }, doer).author).toEqual({ name: 'OnlyName', email: 'doer@example.com' });
  });
});
