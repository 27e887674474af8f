// Language classification as Gitea/linguist do it, over linguist's real language table.
import { describe, expect, it } from '@jest/globals';
import { languageSizes, primaryLanguage, type LinguistAttributes, type TreeFile } from '../src/domain/languages.js';
import { linguistTable } from '../src/git/linguist-table.js';

const table = linguistTable();
const sizesOf = (files: TreeFile[], attributes: Record<string, LinguistAttributes> = {}) =>
  Object.fromEntries(languageSizes(files, new Map(Object.entries(attributes)), table));

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

describe('the primary language', () => {
  it('is the one with most bytes, ties by name', () => {
    expect(primaryLanguage(new Map([['Go', 10], ['TypeScript', 30], ['HTML', 30]]))).toBe('HTML');
    expect(primaryLanguage(new Map())).toBe('');
  });
});
