// Git object views without git: which commit and path a raw file request names (Gitea's ref
// guessing), path and ref validation, tree paging, and the headers raw files are served with.
import { describe, expect, it } from '@jest/globals';
import { cleanTreePath, pageOfTree, resolveLocation, type ObjectInfo, type TreeEntry } from '../src/domain/git-objects.js';
import { contentDisposition, detectContentType, rawContentType } from '../src/git-http/raw-headers.js';

const MAIN = 'a'.repeat(40);
const FEATURE = 'b'.repeat(40);
const TAGGED = 'c'.repeat(40);
const COMMIT = 'd'.repeat(40);

/** A repository with branches main and feature/x, tag v1, and commit dddd…; HEAD is main. */
function fakeGit(asked: string[][] = []) {
  const known: Record<string, string> = {
    'HEAD^{commit}': MAIN,
    'refs/heads/main^{commit}': MAIN,
    'refs/heads/feature/x^{commit}': FEATURE,
    'refs/tags/v1^{commit}': TAGGED,
    [`${COMMIT}^{commit}`]: COMMIT,
    'dddddddd^{commit}': COMMIT,
  };
  return {
    async lookupObjects(_gitDir: string, names: readonly string[]) {
      asked.push([...names]);
      return new Map<string, ObjectInfo | undefined>(names.map((n) => [n, known[n] ? { sha: known[n], type: 'commit', size: 200 } : undefined]));
    },
  };
}

const resolve = (kind: 'api' | 'branch' | 'tag' | 'commit', path: string, ref = '') => resolveLocation(fakeGit(), '/repo.git', { kind, path, ref });

describe('the location of a raw file', () => {
  it('is the default branch for a bare path, and the named branch, tag or commit when the path starts with one', async () => {
    expect(await resolve('api', 'docs/README.md')).toEqual({ commit: MAIN, treePath: 'docs/README.md' });
    expect(await resolve('api', 'feature/x/README.md')).toEqual({ commit: FEATURE, treePath: 'README.md' });
    expect(await resolve('api', 'v1/src/a.ts')).toEqual({ commit: TAGGED, treePath: 'src/a.ts' });
    expect(await resolve('api', `${COMMIT}/a.txt`)).toEqual({ commit: COMMIT, treePath: 'a.txt' });
    expect(await resolve('api', 'HEAD/a.txt')).toEqual({ commit: MAIN, treePath: 'a.txt' });
  });

  it('joins the ref query in front of the path, and is nothing when that ref names nothing', async () => {
    expect(await resolve('api', 'README.md', 'feature/x')).toEqual({ commit: FEATURE, treePath: 'README.md' });
    expect(await resolve('api', 'x/README.md', 'feature')).toEqual({ commit: FEATURE, treePath: 'README.md' });
    expect(await resolve('api', 'README.md', COMMIT)).toEqual({ commit: COMMIT, treePath: 'README.md' });
    expect(await resolve('api', 'README.md', 'nope')).toBeUndefined();
  });

  it('on the web paths, is only a branch, only a tag, or a (short) commit id', async () => {
    expect(await resolve('branch', 'feature/x/a/b.txt')).toEqual({ commit: FEATURE, treePath: 'a/b.txt' });
    expect(await resolve('branch', 'v1/a.txt')).toBeUndefined();
    expect(await resolve('tag', 'v1/a.txt')).toEqual({ commit: TAGGED, treePath: 'a.txt' });
    expect(await resolve('tag', 'main/a.txt')).toBeUndefined();
    expect(await resolve('commit', 'dddddddd/a.txt')).toEqual({ commit: COMMIT, treePath: 'a.txt' });
    expect(await resolve('commit', 'main/a.txt')).toBeUndefined();
    // A short id is a commit only on the web's commit path.
    expect(await resolve('api', 'dddddddd/a.txt')).toEqual({ commit: MAIN, treePath: 'dddddddd/a.txt' });
  });

  it('asks git once, and never with a name that is not a valid ref', async () => {
    const asked: string[][] = [];
    const found = await resolveLocation(fakeGit(asked), '/repo.git', { kind: 'api', path: 'x/--upload-pack=evil/a..b/c d/README.md', ref: '--output=/tmp/x' });
    expect(found).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0].every((name) => !name.startsWith('-') && !name.includes('..') && !name.includes(' ') && !name.includes('--'))).toBe(true);
  });

  it('is nothing for an empty path', async () => {
    expect(await resolve('api', '')).toBeUndefined();
    expect(await resolve('branch', 'nope')).toBeUndefined();
  });
});

describe('tree paths', () => {
  it('collapse repeated slashes and keep ordinary names', () => {
    expect(cleanTreePath('docs//guide.md/')).toBe('docs/guide.md');
    expect(cleanTreePath('--upload-pack=evil')).toBe('--upload-pack=evil');
    expect(cleanTreePath('my notes.txt')).toBe('my notes.txt');
  });

  it.each(['', '/', '..', '../etc/passwd', 'docs/../../x', './a', 'a/./b', 'a\u0000b'])('refuse %j', (path) => {
    expect(cleanTreePath(path)).toBeUndefined();
  });
});

describe('a page of a tree', () => {
  const entries: TreeEntry[] = Array.from({ length: 5 }, (_, i) => ({ path: `f${i}`, mode: '100644', type: 'blob', sha: String(i).repeat(40), size: i }));

  it('cuts per_page entries and says whether more follow', () => {
    expect(pageOfTree('t', entries, 1, 2, 1000)).toMatchObject({ entries: entries.slice(0, 2), truncated: true, page: 1, totalCount: 5 });
    expect(pageOfTree('t', entries, 3, 2, 1000)).toMatchObject({ entries: entries.slice(4), truncated: false, page: 3 });
    expect(pageOfTree('t', entries, 4, 2, 1000)).toMatchObject({ entries: [], truncated: false, page: 4, totalCount: 5 });
  });

  it('uses the configured maximum when per_page is missing or larger, and page 1 below 1', () => {
    expect(pageOfTree('t', entries, 0, 0, 3)).toMatchObject({ entries: entries.slice(0, 3), truncated: true, page: 1 });
    expect(pageOfTree('t', entries, -4, 50, 3).entries).toHaveLength(3);
  });
});

describe('raw file headers', () => {
  it('sniff types as Go does: text, HTML, images, archives, binary', () => {
    expect(detectContentType(Buffer.from('hello\n'))).toBe('text/plain; charset=utf-8');
    expect(detectContentType(Buffer.from('  <!DOCTYPE html><html>'))).toBe('text/html');
    expect(detectContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]))).toBe('image/png');
    expect(detectContentType(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(detectContentType(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(detectContentType(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('application/zip');
    expect(detectContentType(Buffer.from([0, 1, 2, 3]))).toBe('application/octet-stream');
  });

  it('serve text as text/plain with its charset, browsable media with their type, the rest as octet-stream', () => {
    expect(rawContentType(Buffer.from('<html><script>x</script></html>'), true)).toBe('text/plain; charset=utf-8');
    expect(rawContentType(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), true)).toBe('image/svg+xml');
    expect(rawContentType(Buffer.from('<!-- c --><svg width="1"></svg>'), true)).toBe('image/svg+xml');
    expect(rawContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), true)).toBe('image/jpeg');
    expect(rawContentType(Buffer.from('%PDF-1.4'), true)).toBe('application/pdf');
    expect(rawContentType(Buffer.from('PK\x03\x04', 'latin1'), true)).toBe('application/octet-stream');
    expect(rawContentType(Buffer.alloc(0), true)).toBe('text/plain; charset=utf-8');
    expect(rawContentType(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), true)).toBe('text/plain');
  });

  it('keep UTF-8 text UTF-8 when the sniffed prefix cuts a character in two', () => {
    const text = Buffer.from(`${'a'.repeat(1023)}é and more`, 'utf8');
    expect(rawContentType(text.subarray(0, 1024), false)).toBe('text/plain; charset=utf-8');
  });

  it('name the file inline as Go formats it: a token bare, else quoted, non-ASCII also as filename*', () => {
    expect(contentDisposition('inline', 'README.md')).toBe('inline; filename=README.md');
    expect(contentDisposition('inline', 'my notes.txt')).toBe('inline; filename="my notes.txt"');
    expect(contentDisposition('inline', 'a"b.txt')).toBe('inline; filename="a\\"b.txt"');
    expect(contentDisposition('inline', 'café.txt')).toBe("inline; filename=caf_.txt; filename*=utf-8''caf%C3%A9.txt");
  });
});
