// What the Repository JSON reports from git (domain/git-facts.ts): the license files at the
// root of the default branch's tree.
import type { GitFactsReader } from '../domain/git-facts.js';
import type { RefIndex } from './ref-index.js';
import { resolveCommit } from './refs.js';
import type { RepositoryStorage } from './storage.js';
import { isLicenseFileName } from '../domain/licenses.js';

/** A license file larger than this is no license text worth comparing. */
const MAX_LICENSE_BYTES = 256 * 1024;

export function gitFactsReader(storage: RepositoryStorage, refs?: RefIndex): GitFactsReader {
  return {
    // Through the refs table and the cat-file cache: no process per push to the default branch.
    async licenseFiles(owner, name, branch) {
      const gitDir = storage.pathOf(owner, name);
      const ref = `refs/heads/${branch}`;
      const commit = branch ? await (refs ? refs.resolveCommit(gitDir, ref) : resolveCommit(gitDir, ref)) : undefined;
      if (!commit) return []; // no such branch (an empty repository)
      const objects = storage.objects(gitDir);
      const files: Array<{ name: string; text: string }> = [];
      for (const entry of await objects.list(commit, '')) {
        if (entry.type !== 'blob' || !isLicenseFileName(entry.path) || entry.size > MAX_LICENSE_BYTES) continue;
        const bytes = await objects.blob(entry.sha);
        if (bytes) files.push({ name: entry.path, text: bytes.toString('utf8') });
      }
      return files;
    },
    async licenseEntries(owner, name, commit) {
      const entries = await storage.objects(storage.pathOf(owner, name)).list(commit, '');
      return entries.filter((e) => e.type === 'blob' && isLicenseFileName(e.path)).map((e) => `${e.path} ${e.sha}`).sort();
    },
  };
}
