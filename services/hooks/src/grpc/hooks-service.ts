// anvil.hooks.v1.HooksService: no RPCs yet (webhooks and their deliveries arrive with the
// webhooks issue). Registering it lets the health check answer SERVING for it by name.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type hooks } from '@anvil/proto';

export const HOOKS_SERVICE_NAME = 'anvil.hooks.v1.HooksService';

export function hooksService(): ServiceImplementation<hooks.HooksServiceHandlers> {
  return {};
}

export function hooksGrpcService() {
  return {
    name: HOOKS_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.hooks.v1.HooksService.service,
    implementation: hooksService(),
  };
}
