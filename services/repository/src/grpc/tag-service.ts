// anvil.repository.v1.TagService: decode the request, call the tag domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { createTag, deleteTag, getAnnotatedTag, getTag, listTags, type RepositoryName, type TagDeps } from '../domain/tags.js';
import type { GitTag } from '../git/tags.js';
import { timestamp } from './messages.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

export const TAG_SERVICE_NAME = 'anvil.repository.v1.TagService';

const at = (unixSeconds: number) => timestamp(new Date(unixSeconds * 1000));

function tagMessage(tag: GitTag, repo?: RepositoryName): repository.TagInput {
  return {
    repository: repo,
    name: tag.name, id: tag.id, commit_sha: tag.commitSha, message: tag.message, created_at: at(tag.created), annotated: tag.annotated,
    tagger: tag.tagger ? { name: tag.tagger.name, email: tag.tagger.email, when: at(tag.tagger.when) } : undefined,
  };
}

/** Tag writes take the repository's turn with pushes and other ref writers (domain/write-lock.ts). */
type LockedDeps = TagDeps & ReadAccessDeps & { writeLock: RepositoryWriteLock };

export function tagService(deps: LockedDeps): ServiceImplementation<repository.TagServiceHandlers> {
  return {
    async ListTags(request, context) {
      const { offset, limit } = pageOf(request.page);
      const { items, total, repository: repo } = await repositoryRead(deps, refOf(request), context, (access) => listTags(deps, access, offset, limit));
      return { tags: items.map((t) => tagMessage(t)), total, repository: repo };
    },
    async GetTag(request, context) {
      const { tag, repository: repo } = await repositoryRead(deps, refOf(request), context, (access) => getTag(deps, access, request.name));
      return tagMessage(tag, repo);
    },
    async CreateTag(request, context) {
      const ref = refOf(request);
      const input = { tagName: request.tag_name, target: request.target, message: request.message };
      const { tag, repository: repo } = await deps.writeLock.run(ref.owner, ref.name,
        async () => createTag(deps, await repositoryOf(deps.store, ref, context), input, context.caller), context.signal);
      return tagMessage(tag, repo);
    },
    async DeleteTag(request, context) {
      const ref = refOf(request);
      await deps.writeLock.run(ref.owner, ref.name, async () => deleteTag(deps, await repositoryOf(deps.store, ref, context), request.name, context.caller), context.signal);
      return {};
    },
    async GetAnnotatedTag(request, context) {
      const { tag, commit, repository: repo } = await getAnnotatedTag(deps, await repositoryOf(deps.store, refOf(request), context), request.sha);
      const verification = commit?.verification;
      return {
        repository: repo,
        sha: tag.sha, tag: tag.tag, message: tag.message,
        // Gitea's ToAnnotatedTagObject names the commit the tag peels to (a tag of a tag included).
        object_sha: commit?.sha ?? tag.objectSha, object_type: commit ? 'commit' : tag.objectType,
        tagger: { name: tag.tagger.name, email: tag.tagger.email, when: at(tag.tagger.when) },
        verification: verification ? {
          verified: verification.verified, reason: verification.reason, signature: verification.signature,
          payload: verification.payload, signer: verification.signer ?? null,
        } : null,
        commit_committer_email: commit?.committerEmail ?? '',
      };
    },
  };
}

export function tagGrpcService(deps: LockedDeps) {
  return {
    name: TAG_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.TagService.service,
    implementation: tagService(deps),
  };
}
