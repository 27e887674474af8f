// Which licenses a repository's default branch declares, as Gitea's repository JSON and
// GET /repos/{o}/{r}/licenses report them: SPDX ids of the license files at the root of the
// tree (LICENSE, LICENCE.md, COPYING, UNLICENSE, LICENSE-MIT, …). A file is recognised by an
// `SPDX-License-Identifier:` line, or by its text: word pairs compared with every SPDX
// license text, accepted when nearly all of them agree (copyright lines and placeholders
// such as `<year>` do not count).

/** SPDX id → license text (the spdx-license-list package's full texts). */
export type LicenseTexts = Readonly<Record<string, { licenseText: string }>>;

const LICENSE_FILE = /^(?:un)?licen[sc]e(?:[-_. ].*)?$|^copying(?:[-_. ].*)?$/i;
const SPDX_LINE = /SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+(?:\s+(?:OR|AND|WITH)\s+[A-Za-z0-9.+-]+)*)/;
/** Share of word pairs two texts must have in common (Dice coefficient). */
const MATCH_THRESHOLD = 0.9;

export function isLicenseFileName(name: string): boolean {
  return LICENSE_FILE.test(name);
}

/** Words of a license text without what varies between copies: copyright lines, placeholders, punctuation. */
function words(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !/^\s*(?:copyright|\(c\)|©)/i.test(line))
    .join(' ')
    .toLowerCase()
    .replace(/<[^>]{0,60}>|\[[^\]]{0,60}\]|\{[^}]{0,60}\}/g, ' ')
    .replace(/licence/g, 'license')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

function pairs(text: string): Set<string> {
  const list = words(text);
  const result = new Set<string>();
  for (let i = 0; i + 1 < list.length; i += 1) result.add(`${list[i]} ${list[i + 1]}`);
  return result;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const pair of small) if (large.has(pair)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

export class LicenseDetector {
  private known?: Array<{ id: string; pairs: Set<string> }>;

  constructor(private readonly texts: () => LicenseTexts) {}

  private catalogue() {
    this.known ??= Object.entries(this.texts()).map(([id, { licenseText }]) => ({ id, pairs: pairs(licenseText) }));
    return this.known;
  }

  /** The SPDX id a license file's text declares or matches; undefined when none fits. */
  identify(text: string): string | undefined {
    const declared = SPDX_LINE.exec(text)?.[1];
    if (declared && Object.hasOwn(this.texts(), declared)) return declared;
    const own = pairs(text);
    let best: { id: string; score: number } | undefined;
    for (const license of this.catalogue()) {
      // Texts of very different lengths cannot reach the threshold: skip the comparison.
      const ratio = own.size / (license.pairs.size || 1);
      if (ratio < 0.8 || ratio > 1.25) continue;
      const score = dice(own, license.pairs);
      if (score >= MATCH_THRESHOLD && (!best || score > best.score)) best = { id: license.id, score };
    }
    return best?.id;
  }

  /** SPDX ids of a tree's license files, each once, sorted. */
  detect(files: ReadonlyArray<{ name: string; text: string }>): string[] {
    const ids = new Set<string>();
    for (const file of files) {
      if (!isLicenseFileName(file.name)) continue;
      const id = this.identify(file.text);
      if (id) ids.add(id);
    }
    return [...ids].sort();
  }
}
