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

/** How a file counts: for `language`, or only as the fallback when nothing is `included`. */
interface Counted {
  language: string;
  included: boolean;
}

/** Gitea's rules for one file; undefined: it does not count at all. */
function classify(path: string, attrs: LinguistAttributes, table: LanguageTable): Counted | undefined {
  if (attrs.vendored ?? isVendoredPath(path)) return undefined;
  if (attrs.generated ?? isGeneratedPath(path)) return undefined;
  if (attrs.documentation ?? isDocumentationPath(path)) return undefined;
  const named = attrs.language ? table.canonical(attrs.language) : undefined;
  // Dot files count only when an attribute names their language.
  if (!named && isDotFilePath(path)) return undefined;
  const language = named ?? table.detect(path);
  if (!language) return undefined;
  const type = table.typeOf(language);
  const included = attrs.detectable ?? (type === 'programming' || type === 'markup');
  if (!included && attrs.detectable === false) return undefined;
  return { language, included };
}

/** A tree's sizes, and whether they are the fallback language's (nothing else counted). */
export function tallyLanguages(files: readonly TreeFile[], attributes: ReadonlyMap<string, LinguistAttributes>, table: LanguageTable): { sizes: LanguageSizes; fallback: boolean } {
  const sizes: LanguageSizes = new Map();
  let firstExcluded: string | undefined;
  let firstExcludedSize = 0;
  for (const file of files) {
    const counted = classify(file.path, attributes.get(file.path) ?? {}, table);
    if (!counted) continue;
    if (counted.included) {
      sizes.set(counted.language, (sizes.get(counted.language) ?? 0) + file.size);
    } else {
      firstExcluded ??= counted.language;
      if (counted.language === firstExcluded) firstExcludedSize += file.size;
    }
  }
  if (sizes.size === 0 && firstExcluded) return { sizes: new Map([[firstExcluded, firstExcludedSize]]), fallback: true };
  return { sizes, fallback: false };
}

export const isAttributesPath = (path: string): boolean => path === '.gitattributes' || path.endsWith('/.gitattributes');

/**
 * A child commit's sizes from its parent's and the regular files the change removed (with
 * their old sizes) and added (with their new ones; a modified file is in both). Sound only
 * where the sizes are a plain sum over files: neither tree has a `.gitattributes` (a pattern
 * in one could name any path) and the parent's sizes are no fallback. Undefined where that
 * cannot be told from the change alone, for a computation over the whole tree:
 * - the change touches a `.gitattributes`;
 * - a language's bytes fall to zero (it may keep empty files, which still list it, or none);
 * - nothing counts any more (the fallback language would stand in).
 */
export function languageSizesAfter(parent: LanguageSizes, removed: readonly TreeFile[], added: readonly TreeFile[], table: LanguageTable): LanguageSizes | undefined {
  if ([...removed, ...added].some((f) => isAttributesPath(f.path))) return undefined;
  const sizes: LanguageSizes = new Map(parent);
  const shrunk = new Set<string>();
  const shift = (file: TreeFile, sign: 1 | -1) => {
    const counted = classify(file.path, {}, table);
    if (!counted?.included) return;
    sizes.set(counted.language, (sizes.get(counted.language) ?? 0) + sign * file.size);
    if (sign < 0) shrunk.add(counted.language);
  };
  for (const file of removed) shift(file, -1);
  for (const file of added) shift(file, 1);
  for (const language of shrunk) {
    if ((sizes.get(language) ?? 0) <= 0) return undefined;
  }
  return sizes.size > 0 ? sizes : undefined;
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
