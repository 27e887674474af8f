// The TemplateCatalog over the files this service ships:
//
// - Gitignore templates: services/repository/templates/gitignore/<Name>, one file per
//   template, named as github/gitignore (CC0-1.0) names them, which is also what Gitea
//   ships and what clients send. They are vendored, and only a common subset, because no
//   package on the npm registry bundles github/gitignore for offline use (the ones found
//   fetch it from GitHub at run time, which an air-gapped install cannot do). Adding a
//   template is dropping a file there.
// - License texts: the `spdx-license-list` package's full texts (SPDX ids as names),
//   loaded on first use: the JSON is 5 MB and most processes never need it.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { TemplateCatalog } from '../domain/repo-templates.js';

const GITIGNORE_DIR = fileURLToPath(new URL('../../templates/gitignore/', import.meta.url));

// Gitea's [repository] PREFERRED_LICENSES default: listed first.
const PREFERRED_LICENSES = ['Apache-2.0', 'MIT'];

interface SpdxLicense {
  name: string;
  url: string;
  licenseText: string;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function loadGitignores(dir: string): Map<string, string> {
  const templates = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && !entry.name.startsWith('.')) templates.set(entry.name, readFileSync(`${dir}/${entry.name}`, 'utf8'));
  }
  return templates;
}

export function templateCatalog(gitignoreDir = GITIGNORE_DIR): TemplateCatalog {
  const gitignores = loadGitignores(gitignoreDir);
  const gitignoreNames = [...gitignores.keys()].sort(byteOrder);
  let licenses: Record<string, SpdxLicense> | undefined;
  let licenseNames: string[] | undefined;
  const spdx = (): Record<string, SpdxLicense> => {
    licenses ??= createRequire(import.meta.url)('spdx-license-list/full') as Record<string, SpdxLicense>;
    return licenses;
  };
  return {
    gitignoreNames: () => gitignoreNames,
    gitignore: (name) => gitignores.get(name),
    licenseNames() {
      if (!licenseNames) {
        const all = Object.keys(spdx()).sort(byteOrder);
        const preferred = PREFERRED_LICENSES.filter((key) => key in spdx());
        licenseNames = [...preferred, ...all.filter((key) => !preferred.includes(key))];
      }
      return licenseNames;
    },
    license: (key) => (Object.hasOwn(spdx(), key) ? spdx()[key].licenseText : undefined),
  };
}
