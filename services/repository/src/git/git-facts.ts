// What the Repository JSON reports from git (domain/git-facts.ts): the license files at the
// root of the default branch's tree.
import type { GitFactsReader } from '../domain/git-facts.js';
import { git, runGit } from './command.js';
import { isLicenseFileName } from '../domain/licenses.js';

/** A license file larger than this is no license text worth comparing. */
const MAX_LICENSE_BYTES = 256 * 1024;

export function gitFactsReader(gitDirOf: (owner: string, name: string) => string): GitFactsReader {
  return {
    async licenseFiles(owner, name, branch) {
      const gitDir = gitDirOf(owner, name);
      let listing: string;
      try {
        listing = await runGit(git('ls-tree', { gitDir }).flag('-l', '-z').ref(`refs/heads/${branch}`).build());
      } catch {
        return []; // no such branch (an empty repository)
      }
      const files: Array<{ name: string; text: string }> = [];
      for (const entry of listing.split('\0')) {
        const tab = entry.indexOf('\t');
        if (tab < 0) continue;
        const [, type, oid, size] = entry.slice(0, tab).split(/\s+/);
        const fileName = entry.slice(tab + 1);
        if (type !== 'blob' || !isLicenseFileName(fileName) || Number(size) > MAX_LICENSE_BYTES) continue;
        files.push({ name: fileName, text: await runGit(git('cat-file', { gitDir }).arg('blob').oid(oid!).build()) });
      }
      return files;
    },
  };
}
