// GET /<owner>/<name>/pull-diff/<base>/<head>.<diff|patch> on the HTTP side channel: a pull's
// diff or patch text is bulk, so git's output is streamed to the gateway here, never through
// gRPC (DESIGN.md §3). A diff runs from the merge base to head (what the head changed since
// it forked), a patch lists head's commits not on base, as PullGitService.GetPullDiff did.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@anvil/kit';
import { spawnGit } from '../git/command.js';
import { mergeBase, rangeDiffCommand } from '../git/pull-git.js';
import { resolveCommit } from '../git/refs.js';
import type { RepositoryStorage } from '../git/storage.js';
import { authorize } from './grant.js';
import { fail, streamGitOutput } from './reply.js';

export const PULL_DIFF_PATH = /^\/([^/]+)\/([^/]+)\/pull-diff\/([^/]+)\/([^/]+)\.(diff|patch)$/;

export async function servePullDiff(
  req: IncomingMessage, res: ServerResponse, match: RegExpExecArray,
  options: { secret: string; storage: RepositoryStorage; log: Logger },
): Promise<void> {
  const grant = authorize(req, res, { owner: match[1], name: match[2] }, 'read', options.secret);
  if (!grant) return;
  let base: string;
  let head: string;
  try {
    base = decodeURIComponent(match[3]);
    head = decodeURIComponent(match[4]);
  } catch {
    return fail(res, 404, 'unknown revision');
  }
  const gitDir = options.storage.pathOf(grant.owner, grant.name);
  // resolveCommit refuses anything that is not a valid ref name or object id.
  const [baseSha, headSha] = await Promise.all([resolveCommit(gitDir, base), resolveCommit(gitDir, head)]);
  if (!baseSha || !headSha) return fail(res, 404, 'revision not found');
  const type = match[5] as 'diff' | 'patch';
  const from = type === 'patch' ? baseSha : await mergeBase(gitDir, baseSha, headSha);
  if (!from) return fail(res, 404, 'no merge base');

  await streamGitOutput(res, spawnGit(rangeDiffCommand(gitDir, from, headSha, type)), { 'content-type': 'text/plain;charset=utf-8' }, options.log, 'git diff');
}
