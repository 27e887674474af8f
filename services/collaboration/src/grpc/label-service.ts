// anvil.collaboration.v1.LabelService: decode the request, call the label domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import {
  addIssueLabels, clearIssueLabels, createLabel, deleteLabel, editLabel, getLabel, listIssueLabels, listLabels, removeIssueLabel, replaceIssueLabels, type LabelDeps,
} from '../domain/labels.js';
import { createOrgLabel, deleteOrgLabel, editOrgLabel, getOrgLabel, listOrgLabels } from '../domain/org-labels.js';
import { pageOf } from './issue-service.js';
import { labelMessage } from './messages.js';

export const LABEL_SERVICE_NAME = 'anvil.collaboration.v1.LabelService';

const newLabelOf = (request: collaboration.CreateLabelRequest) => ({
  name: request.name, color: request.color, description: request.description, exclusive: request.exclusive, isArchived: request.is_archived,
});

const labelChangeOf = (request: collaboration.EditLabelRequest) => ({
  name: request.name ?? undefined, color: request.color ?? undefined, description: request.description ?? undefined,
  exclusive: request.exclusive ?? undefined, isArchived: request.is_archived ?? undefined,
});

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
    async CreateLabel(request, { caller, repository }) {
      return labelMessage(await createLabel(deps, repository, caller, newLabelOf(request)));
    },
    async EditLabel(request, { caller, repository }) {
      return labelMessage(await editLabel(deps, repository, caller, request.id, labelChangeOf(request)));
    },
    async DeleteLabel(request, { caller, repository }) {
      await deleteLabel(deps, repository, caller, request.id);
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
    async ListOrgLabels(request, { org }) {
      const { items, total } = await listOrgLabels(deps, org, pageOf(request.page));
      return listOf(items, total);
    },
    async GetOrgLabel(request, { org }) {
      return labelMessage(await getOrgLabel(deps, org, request.id));
    },
    async CreateOrgLabel(request, { caller, org }) {
      return labelMessage(await createOrgLabel(deps, org, caller, newLabelOf(request)));
    },
    async EditOrgLabel(request, { caller, org }) {
      return labelMessage(await editOrgLabel(deps, org, caller, request.id, labelChangeOf(request)));
    },
    async DeleteOrgLabel(request, { caller, org }) {
      await deleteOrgLabel(deps, org, caller, request.id);
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
