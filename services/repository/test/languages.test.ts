// Language classification as Gitea/linguist do it, over linguist's real language table.
import { describe, expect, it } from '@jest/globals';
import { languageSizesAfter, tallyLanguages, primaryLanguage, type LinguistAttributes, type TreeFile } from '../src/domain/languages.js';
import { linguistTable } from '../src/git/linguist-table.js';

const table = linguistTable();
const sizesOf = (files: TreeFile[], attributes: Record<string, LinguistAttributes> = {}) =>
  Object.fromEntries(tallyLanguages(files, new Map(Object.entries(attributes)), table).sizes);

describe('the linguist table', () => {
  it.each([
    ['src/main.ts', 'TypeScript'], ['lib/app.js', 'JavaScript'], ['a/b/c.py', 'Python'], ['Makefile', 'Makefile'],
    ['Dockerfile', 'Dockerfile'], ['cmd/main.go', 'Go'], ['style.CSS', 'CSS'], ['index.html', 'HTML'], ['x.md', 'Markdown'],
  ])('detects %s as %s', (path, language) => {
    expect(table.detect(path)).toBe(language);
  });

  it('knows nothing of unknown extensions', () => {
    expect(table.detect('notes.zzzunknown')).toBeUndefined();
  });

  it('resolves aliases to the canonical name, any case', () => {
    expect(table.canonical('ts')).toBe('TypeScript');
    expect(table.canonical('PYTHON')).toBe('Python');
    expect(table.canonical('no such language')).toBeUndefined();
  });
});

describe('language sizes', () => {
  it('counts bytes of programming and markup languages only', () => {
    expect(sizesOf([
      { path: 'src/a.ts', size: 100 }, { path: 'src/b.ts', size: 50 }, { path: 'web/index.html', size: 30 },
      { path: 'config.json', size: 999 }, { path: 'notes.md', size: 999 },
    ])).toEqual({ TypeScript: 150, HTML: 30 });
  });

  it('leaves out vendored, generated, documentation and dot files', () => {
    expect(sizesOf([
      { path: 'main.go', size: 10 }, { path: 'vendor/lib/x.go', size: 1000 }, { path: 'node_modules/p/i.js', size: 1000 },
      { path: 'docs/example.py', size: 1000 }, { path: 'api.pb.go', size: 1000 }, { path: 'app.min.js', size: 1000 },
      { path: '.eslintrc.js', size: 1000 }, { path: '.github/x.py', size: 1000 },
    ])).toEqual({ Go: 10 });
  });

  it('honours .gitattributes: vendored/generated/documentation set or unset beat the path rules', () => {
    expect(sizesOf(
      [{ path: 'vendor/kept.go', size: 7 }, { path: 'src/gen.go', size: 100 }, { path: 'src/real.go', size: 3 }, { path: 'docs/tool.py', size: 5 }, { path: 'src/manual.go', size: 40 }],
      { 'vendor/kept.go': { vendored: false }, 'src/gen.go': { generated: true }, 'docs/tool.py': { documentation: false }, 'src/manual.go': { documentation: true } },
    )).toEqual({ Go: 10, Python: 5 });
  });

  it('honours linguist-language (names and aliases) and linguist-detectable', () => {
    expect(sizesOf(
      [{ path: 'a.inc', size: 20 }, { path: 'b.txt', size: 8 }, { path: 'data.json', size: 30 }, { path: 'c.py', size: 4 }],
      { 'a.inc': { language: 'rust' }, 'b.txt': { language: 'Python' }, 'data.json': { detectable: true }, 'c.py': { detectable: false } },
    )).toEqual({ Rust: 20, Python: 8, JSON: 30 });
  });

  it('falls back to the first left-out language when nothing else counts (as Gitea)', () => {
    expect(sizesOf([{ path: 'a.json', size: 5 }, { path: 'b.yml', size: 9 }, { path: 'c.json', size: 6 }])).toEqual({ JSON: 11 });
  });

  it('skips nothing-to-count trees', () => {
    expect(sizesOf([])).toEqual({});
  });
});

describe('language sizes after a change', () => {
  // A tree as path -> size; a change as the files it removed and added (a modified one in both).
  const after = (before: Record<string, number>, removed: string[], added: Record<string, number>) => {
    const files = (tree: Record<string, number>) => Object.entries(tree).map(([path, size]) => ({ path, size }));
    const parent = tallyLanguages(files(before), new Map(), table).sizes;
    const followed = languageSizesAfter(parent, removed.map((path) => ({ path, size: before[path] })), files(added), table);
    const tree = { ...before };
    for (const path of removed) delete tree[path];
    return { followed: followed && Object.fromEntries(followed), counted: sizesOf(files({ ...tree, ...added })) };
  };

  it('equal a count of the whole tree for files added, grown, renamed and left out', () => {
    for (const [before, removed, added] of [
      [{ 'a.go': 10 }, [], { 'b.py': 4 }],
      [{ 'a.go': 10, 'b.py': 4 }, ['a.go'], { 'a.go': 25 }],
      [{ 'a.go': 10, 'b.py': 4 }, ['b.py'], { 'src/b.py': 4 }],
      [{ 'a.go': 10 }, [], { 'vendor/x.go': 99, 'README.md': 7, '.x.js': 3, 'data.json': 2 }],
      [{ 'a.go': 10, 'empty.rb': 0 }, [], { 'other.rb': 0 }],
    ] as Array<[Record<string, number>, string[], Record<string, number>]>) {
      const { followed, counted } = after(before, removed, added);
      expect({ before, removed, added, followed }).toEqual({ before, removed, added, followed: counted });
    }
  });

  it('give up where only the whole tree can tell: a language emptied, nothing left but the fallback, a .gitattributes', () => {
    // b.rb may have been Ruby's only file, or there may be empty ones left that keep it listed.
    expect(after({ 'a.go': 10, 'b.rb': 5, 'c.rb': 0 }, ['b.rb'], {}).followed).toBeUndefined();
    expect(after({ 'a.go': 10, 'd.json': 3 }, ['a.go'], {}).followed).toBeUndefined();
    expect(after({ 'a.go': 10 }, [], { '.gitattributes': 20 }).followed).toBeUndefined();
    expect(after({ 'a.go': 10 }, [], { 'sub/.gitattributes': 20 }).followed).toBeUndefined();
  });
});

describe('the primary language', () => {
  it('is the one with most bytes, ties by name', () => {
    expect(primaryLanguage(new Map([['Go', 10], ['TypeScript', 30], ['HTML', 30]]))).toBe('HTML');
    expect(primaryLanguage(new Map())).toBe('');
  });
});
