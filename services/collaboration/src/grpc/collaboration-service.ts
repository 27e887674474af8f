// anvil.collaboration.v1.CollaborationService: no RPCs yet (issues, pull requests, reviews, labels, milestones, comments, tracked time, subscriptions and notifications arrive with
// their issues). Registering it lets the health check answer SERVING for it by name.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';

export const COLLABORATION_SERVICE_NAME = 'anvil.collaboration.v1.CollaborationService';

export function collaborationService(): ServiceImplementation<collaboration.CollaborationServiceHandlers> {
  return {};
}

export function collaborationGrpcService() {
  return {
    name: COLLABORATION_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.CollaborationService.service,
    implementation: collaborationService(),
  };
}
