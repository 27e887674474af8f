// anvil.repository.v1.TopicService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { addTopic, deleteTopic, listTopics, replaceTopics, searchTopics, type TopicDeps } from '../domain/topics.js';
import { timestamp } from './messages.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

export const TOPIC_SERVICE_NAME = 'anvil.repository.v1.TopicService';

export function topicService(deps: TopicDeps): ServiceImplementation<repository.TopicServiceHandlers> {
  return {
    async ListTopics(request, context) {
      const { offset, limit } = pageOf(request.page);
      return listTopics(await repositoryOf(deps.store, refOf(request), context), offset, limit);
    },
    async ReplaceTopics(request, context) {
      return { invalid_topics: (await replaceTopics(deps, await repositoryOf(deps.store, refOf(request), context), request.topics)).invalidTopics };
    },
    async AddTopic(request, context) {
      return { invalid_topics: (await addTopic(deps, await repositoryOf(deps.store, refOf(request), context), request.topic)).invalidTopics };
    },
    async DeleteTopic(request, context) {
      return { invalid_topics: (await deleteTopic(deps, await repositoryOf(deps.store, refOf(request), context), request.topic)).invalidTopics };
    },
    async SearchTopics(request) {
      const { offset, limit } = pageOf(request.page);
      const { items, total } = await searchTopics(deps, request.q, offset, limit);
      return {
        topics: items.map((t) => ({ id: t.id, name: t.name, repo_count: t.repo_count, created_at: timestamp(t.created_at), updated_at: timestamp(t.updated_at) })),
        total,
      };
    },
  };
}

export function topicGrpcService(deps: TopicDeps) {
  return {
    name: TOPIC_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.TopicService.service,
    implementation: topicService(deps),
  };
}
