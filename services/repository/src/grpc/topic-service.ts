// anvil.repository.v1.TopicService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { addTopic, deleteTopic, listTopics, replaceTopics, searchTopics, type TopicDeps } from '../domain/topics.js';
import { timestamp } from './messages.js';
import { pageOf, refOf } from './requests.js';

export const TOPIC_SERVICE_NAME = 'anvil.repository.v1.TopicService';

export function topicService(deps: TopicDeps): ServiceImplementation<repository.TopicServiceHandlers> {
  return {
    async ListTopics(request, { caller }) {
      const ref = refOf(request);
      const { offset, limit } = pageOf(request.page);
      return listTopics(deps, ref.owner, ref.name, caller, offset, limit);
    },
    async ReplaceTopics(request, { caller }) {
      const ref = refOf(request);
      return { invalid_topics: (await replaceTopics(deps, ref.owner, ref.name, request.topics, caller)).invalidTopics };
    },
    async AddTopic(request, { caller }) {
      const ref = refOf(request);
      return { invalid_topics: (await addTopic(deps, ref.owner, ref.name, request.topic, caller)).invalidTopics };
    },
    async DeleteTopic(request, { caller }) {
      const ref = refOf(request);
      return { invalid_topics: (await deleteTopic(deps, ref.owner, ref.name, request.topic, caller)).invalidTopics };
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
