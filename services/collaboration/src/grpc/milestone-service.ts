// anvil.collaboration.v1.MilestoneService: decode the request, call the milestone domain
// with the repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { createMilestone, deleteMilestone, editMilestone, getMilestone, listMilestones, type MilestoneDeps } from '../domain/milestones.js';
import { pageOf } from './issue-service.js';
import { dateOf, milestoneMessage } from './messages.js';

export const MILESTONE_SERVICE_NAME = 'anvil.collaboration.v1.MilestoneService';

export function milestoneService(deps: MilestoneDeps): ServiceImplementation<collaboration.MilestoneServiceHandlers> {
  return {
    async ListMilestones(request, { repository }) {
      const { items, total } = await listMilestones(deps, repository, { state: request.state, name: request.name, ...pageOf(request.page) });
      return { milestones: items.map(milestoneMessage), total };
    },
    async GetMilestone(request, { repository }) {
      return milestoneMessage(await getMilestone(deps, repository, request.id_or_name));
    },
    async CreateMilestone(request, { caller, repository }) {
      return milestoneMessage(await createMilestone(deps, repository, caller, {
        title: request.title, description: request.description, state: request.state, dueDate: dateOf(request.due_on),
      }));
    },
    async EditMilestone(request, { caller, repository }) {
      return milestoneMessage(await editMilestone(deps, repository, caller, request.id_or_name, {
        title: request.title ?? undefined, description: request.description ?? undefined, state: request.state ?? undefined, dueDate: dateOf(request.due_on),
      }));
    },
    async DeleteMilestone(request, { caller, repository }) {
      await deleteMilestone(deps, repository, caller, request.id_or_name);
      return {};
    },
  };
}

export function milestoneGrpcService(deps: MilestoneDeps) {
  return {
    name: MILESTONE_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.MilestoneService.service,
    implementation: milestoneService(deps),
  };
}
