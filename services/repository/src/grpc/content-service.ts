// anvil.repository.v1.ContentService: decode the request, call the contents domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getContents, getFileContents, type ContentDeps, type ContentItem, type ContentsView } from '../domain/contents.js';
import { changeFiles, type FileOperationKind } from '../domain/file-changes.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import type { Signature } from '../git/file-changes-git.js';
import { timestamp } from './messages.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';
import { refOf, repositoryOf } from './requests.js';

export const CONTENT_SERVICE_NAME = 'anvil.repository.v1.ContentService';

const at = (unixSeconds: number) => timestamp(new Date(unixSeconds * 1000));

function entryMessage(item: ContentItem): repository.ContentEntryInput {
  return {
    name: item.name, path: item.path, sha: item.sha, type: item.type, size: item.size,
    has_content: item.content !== undefined, content: item.content ?? Buffer.alloc(0),
    target: item.target ?? '', submodule_url: item.submoduleUrl ?? '',
    last_commit_sha: item.lastCommit?.sha ?? '',
    last_author_date: item.lastCommit ? at(item.lastCommit.authorTime) : undefined,
    last_committer_date: item.lastCommit ? at(item.lastCommit.committerTime) : undefined,
    last_commit_message: item.lastCommit?.message ?? '',
  };
}

function refMessage(ref: ContentsView['at']): repository.ResolvedRefInput {
  return { input: ref.input, kind: ref.kind, name: ref.name, commit_sha: ref.commitSha };
}

const signature = (s: Signature) => ({ name: s.name, email: s.email, when: at(s.time) });
const dateOf = (ts: { seconds: number } | null | undefined) => (ts && ts.seconds ? new Date(ts.seconds * 1000) : undefined);
const identity = (i: repository.Identity | null | undefined) => (i ? { name: i.name, email: i.email } : undefined);

/**
 * Writes take the repository's turn with pushes and other ref writers (domain/write-lock.ts):
 * concurrent commits to different files all land, one after another.
 */
type LockedDeps = ContentDeps & ReadAccessDeps & { writeLock: RepositoryWriteLock };

export function contentService(deps: LockedDeps): ServiceImplementation<repository.ContentServiceHandlers> {
  return {
    async GetContents(request, context) {
      const view = await repositoryRead(deps, refOf(request), context, (repo) => getContents(deps, repo, {
        path: request.path, revision: request.revision, includeContent: request.include_content,
        includeCommit: request.include_commit || request.include_commit_message,
      }));
      return {
        at: refMessage(view.at), is_dir: !view.file,
        file: view.file ? entryMessage(view.file) : undefined,
        entries: (view.entries ?? []).map(entryMessage),
      };
    },
    async GetFileContents(request, context) {
      const { at: ref, items } = await repositoryRead(deps, refOf(request), context, (repo) => getFileContents(deps, repo, request.revision, request.paths));
      return { at: refMessage(ref), entries: items.map(entryMessage) };
    },
    async ChangeFiles(request, context) {
      const ref = refOf(request);
      // One read call: the turn's start reads the refs' rows once (file-changes.ts).
      const result = await deps.writeLock.run(ref.owner, ref.name, () => deps.refs.readCall(() => changeFiles(deps, ref, () => repositoryOf(deps.store, ref, context), {
        branch: request.branch, newBranch: request.new_branch, message: request.message,
        author: identity(request.author), committer: identity(request.committer),
        authorDate: dateOf(request.author_date), committerDate: dateOf(request.committer_date),
        signoff: request.signoff, forcePush: request.force_push,
        files: request.files.map((f) => ({
          operation: f.operation as FileOperationKind, path: f.path, fromPath: f.from_path, sha: f.sha,
          content: f.has_content ? Buffer.from(f.content) : undefined,
        })),
      }, context.caller)), context.signal);
      const { commit } = result;
      return {
        at: { input: result.branch, kind: 'branch', name: result.branch, commit_sha: commit.sha },
        commit: {
          sha: commit.sha, tree_sha: commit.treeSha, parents: commit.parents, message: commit.message,
          author: signature(commit.author), committer: signature(commit.committer),
        },
        files: result.files.map((item) => (item ? { present: true, entry: entryMessage(item) } : { present: false })),
      };
    },
  };
}

export function contentGrpcService(deps: LockedDeps) {
  return {
    name: CONTENT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.ContentService.service,
    implementation: contentService(deps),
  };
}
