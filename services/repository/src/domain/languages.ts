// Bytes per language of a tree, as Gitea computes it (modules/git/languagestats with
// enry): regular files only; vendored, generated, documentation and dot files are left out
// unless `.gitattributes` says otherwise; only programming and markup languages count,
// unless linguist-detectable says otherwise; `linguist-language=X` names the language. When
// nothing counts, the first left-out language stands in (Gitea's fallback).
import { isDocumentationPath, isDotFilePath, isGeneratedPath, isVendoredPath } from './linguist-paths.js';

export interface TreeFile {
  path: string;
  size: number;
}

/** `.gitattributes` values for one path: true (set), false (unset), undefined (unspecified). */
export interface LinguistAttributes {
  vendored?: boolean;
  generated?: boolean;
  documentation?: boolean;
  detectable?: boolean;
  /** linguist-language (or gitlab-language) value. */
  language?: string;
}

export interface LanguageTable {
  /** The language of a path by file name, then extension; undefined when unknown. */
  detect(path: string): string | undefined;
  /** A language's canonical name from a name or alias, any case. */
  canonical(nameOrAlias: string): string | undefined;
  /** 'programming' | 'markup' | 'data' | 'prose' */
  typeOf(language: string): string | undefined;
}

export type LanguageSizes = Map<string, number>;

export function languageSizes(files: readonly TreeFile[], attributes: ReadonlyMap<string, LinguistAttributes>, table: LanguageTable): LanguageSizes {
  const sizes: LanguageSizes = new Map();
  let firstExcluded: string | undefined;
  let firstExcludedSize = 0;
  for (const file of files) {
    const attrs = attributes.get(file.path) ?? {};
    if (attrs.vendored ?? isVendoredPath(file.path)) continue;
    if (attrs.generated ?? isGeneratedPath(file.path)) continue;
    if (attrs.documentation ?? isDocumentationPath(file.path)) continue;
    const named = attrs.language ? table.canonical(attrs.language) : undefined;
    // Dot files count only when an attribute names their language.
    if (!named && isDotFilePath(file.path)) continue;
    const language = named ?? table.detect(file.path);
    if (!language) continue;
    const type = table.typeOf(language);
    const included = attrs.detectable ?? (type === 'programming' || type === 'markup');
    if (included) {
      sizes.set(language, (sizes.get(language) ?? 0) + file.size);
    } else if (attrs.detectable !== false) {
      firstExcluded ??= language;
      if (language === firstExcluded) firstExcludedSize += file.size;
    }
  }
  if (sizes.size === 0 && firstExcluded) sizes.set(firstExcluded, firstExcludedSize);
  return sizes;
}

/** The top language: most bytes, ties broken by name so the answer is stable. */
export function primaryLanguage(sizes: ReadonlyMap<string, number>): string {
  let best = '';
  let bestSize = -1;
  for (const [language, size] of [...sizes].sort(([a], [b]) => a.localeCompare(b))) {
    if (size > bestSize) {
      best = language;
      bestSize = size;
    }
  }
  return best;
}

/** Parses a `.gitattributes` value as git check-attr reports it. */
export function attributeFlag(value: string | undefined): boolean | undefined {
  if (value === 'set' || value === 'true') return true;
  if (value === 'unset' || value === 'false') return false;
  return undefined;
}
