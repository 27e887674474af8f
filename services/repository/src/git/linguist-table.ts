// The LanguageTable over GitHub linguist's languages.yml as the linguist-languages package
// ships it: exact file names first, then the longest matching extension. An extension
// several languages claim goes to the language whose primary extension it is, else to a
// programming language, else to the first by name; linguist's popular languages go first (linguist would use content heuristics).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LanguageTable } from '../domain/languages.js';

interface LanguageData {
  name: string;
  type: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
  aliases?: readonly string[];
}

// linguist's popular.yml (plus Markdown): the usual meaning of an extension other
// languages share (`.html` is HTML before Ecmarkup, `.md` Markdown before GCC Machine Description).
const POPULAR = new Set([
  'ActionScript', 'C', 'C#', 'C++', 'CSS', 'Clojure', 'CoffeeScript', 'Go', 'HTML', 'Haskell', 'Java', 'JavaScript', 'Lua',
  'MATLAB', 'Markdown', 'Objective-C', 'PHP', 'Perl', 'Python', 'R', 'Ruby', 'Scala', 'Shell', 'Swift', 'TeX', 'TypeScript', 'Vim Script',
]);

/**
 * The package's language records, read from its data files rather than imported: it is
 * some 800 ES modules, and modules once imported stay resident for the life of the process
 * (about 29 MiB), where the table built from them needs a fraction of that. Each file is
 * `export default { ...object literal... }`, evaluated here as the literal it is.
 */
function readLanguages(): LanguageData[] {
  const dataDir = join(dirname(createRequire(import.meta.url).resolve('linguist-languages')), 'data');
  return readdirSync(dataDir).filter((file) => file.endsWith('.js')).map((file) => {
    const source = readFileSync(join(dataDir, file), 'utf8').replace(/^\s*export default\s*/, '');
    return new Function(`return (${source});`)() as LanguageData;
  });
}

function build(): LanguageTable {
  const languages = readLanguages().filter((l) => l && typeof l.name === 'string');
  const byFilename = new Map<string, string>();
  const byExtension = new Map<string, LanguageData[]>();
  const byName = new Map<string, LanguageData>();
  for (const language of languages.sort((a, b) => a.name.localeCompare(b.name))) {
    byName.set(language.name.toLowerCase(), language);
    for (const alias of language.aliases ?? []) if (!byName.has(alias.toLowerCase())) byName.set(alias.toLowerCase(), language);
    for (const filename of language.filenames ?? []) if (!byFilename.has(filename)) byFilename.set(filename, language.name);
    for (const extension of language.extensions ?? []) {
      const key = extension.toLowerCase();
      byExtension.set(key, [...(byExtension.get(key) ?? []), language]);
    }
  }
  const pick = (extension: string, candidates: LanguageData[]): string =>
    (candidates.find((l) => POPULAR.has(l.name))
      ?? candidates.find((l) => l.extensions?.[0]?.toLowerCase() === extension)
      ?? candidates.find((l) => l.type === 'programming')
      ?? candidates[0]).name;
  return {
    detect(path) {
      const base = path.slice(path.lastIndexOf('/') + 1);
      const named = byFilename.get(base);
      if (named) return named;
      const lower = base.toLowerCase();
      // Longest extension first: `.d.ts` before `.ts`, `.tar.gz` before `.gz`.
      for (let dot = lower.indexOf('.', 1); dot >= 0; dot = lower.indexOf('.', dot + 1)) {
        const extension = lower.slice(dot);
        const candidates = byExtension.get(extension);
        if (candidates) return pick(extension, candidates);
      }
      return undefined;
    },
    canonical: (nameOrAlias) => byName.get(nameOrAlias.trim().toLowerCase())?.name,
    typeOf: (language) => byName.get(language.toLowerCase())?.type,
  };
}

let table: LanguageTable | undefined;

/** Built once per process. */
export function linguistTable(): LanguageTable {
  return (table ??= build());
}
