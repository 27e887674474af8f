// anvil.collaboration.v1.LabelService: decode the request, call the label domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import {
  addIssueLabels, clearIssueLabels, createLabel, deleteLabel, editLabel, getLabel, listIssueLabels, listLabels, removeIssueLabel, replaceIssueLabels, type LabelDeps,
} from '../domain/labels.js';
import { pageOf } from './issue-service.js';
import { labelMessage } from './messages.js';

export const LABEL_SERVICE_NAME = 'anvil.collaboration.v1.LabelService';

const listOf = (labels: Parameters<typeof labelMessage>[0][], total = labels.length) => ({ labels: labels.map(labelMessage), total });

export function labelService(deps: LabelDeps): ServiceImplementation<collaboration.LabelServiceHandlers> {
  return {
    async ListLabels(request, { repository }) {
      const { items, total } = await listLabels(deps, repository, pageOf(request.page));
      return listOf(items, total);
    },
    async GetLabel(request, { repository }) {
      return labelMessage(await getLabel(deps, repository, request.id));
    },
    async CreateLabel(request, { repository }) {
      return labelMessage(await createLabel(deps, repository, {
        name: request.name, color: request.color, description: request.description, exclusive: request.exclusive, isArchived: request.is_archived,
      }));
    },
    async EditLabel(request, { repository }) {
      return labelMessage(await editLabel(deps, repository, request.id, {
        name: request.name ?? undefined, color: request.color ?? undefined, description: request.description ?? undefined,
        exclusive: request.exclusive ?? undefined, isArchived: request.is_archived ?? undefined,
      }));
    },
    async DeleteLabel(request, { repository }) {
      await deleteLabel(deps, repository, request.id);
      return {};
    },
    async ListIssueLabels(request, { repository }) {
      return listOf(await listIssueLabels(deps, repository, request.index));
    },
    async AddIssueLabels(request, { caller, repository }) {
      return listOf(await addIssueLabels(deps, repository, caller, request.index, request.labels));
    },
    async ReplaceIssueLabels(request, { caller, repository }) {
      return listOf(await replaceIssueLabels(deps, repository, caller, request.index, request.labels));
    },
    async ClearIssueLabels(request, { caller, repository }) {
      await clearIssueLabels(deps, repository, caller, request.index);
      return {};
    },
    async RemoveIssueLabel(request, { caller, repository }) {
      await removeIssueLabel(deps, repository, caller, request.index, request.label_id);
      return {};
    },
  };
}

export function labelGrpcService(deps: LabelDeps) {
  return {
    name: LABEL_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.LabelService.service,
    implementation: labelService(deps),
  };
}
