// anvil.hooks.v1.HooksService: decode the request, call the webhooks domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type hooks, type repository } from '@anvil/proto';
import { createHook, deleteHook, editHook, getHook, listHooks, type EditHookInput, type WebhookStore } from '../domain/webhooks.js';
import type { TestDeliveries } from '../domain/test-delivery.js';
import { getDelivery, listDeliveries, redeliver, type DeliveryHistory } from '../domain/delivery-history.js';
import { deliveryMessage, hookMessage, pageOf, scopeOf } from './messages.js';

export const HOOKS_SERVICE_NAME = 'anvil.hooks.v1.HooksService';

type DeclaredMethods<H> = { [K in keyof H as string extends K ? never : K]: H[K] };

export interface HooksServiceDeps {
  webhooks: WebhookStore;
  tests: TestDeliveries<repository.Push>;
  deliveries: DeliveryHistory;
}

export function hooksService(deps: HooksServiceDeps): ServiceImplementation<DeclaredMethods<hooks.HooksServiceHandlers>> {
  const { webhooks } = deps;
  return {
    async CreateHook(request, { caller }) {
      const hook = await createHook(webhooks, scopeOf(request.scope), {
        type: request.type, name: request.name, config: request.config ?? {}, events: request.events ?? [],
        branchFilter: request.branch_filter, authorizationHeader: request.authorization_header, active: request.active,
      }, caller);
      return hookMessage(hook);
    },
    async ListHooks(request, { caller }) {
      const { items, total } = await listHooks(webhooks, scopeOf(request.scope), pageOf(request.page), caller);
      return { hooks: items.map(hookMessage), total };
    },
    async GetHook(request, { caller }) {
      return hookMessage(await getHook(webhooks, scopeOf(request.scope), Number(request.id), caller));
    },
    async EditHook(request, { caller }) {
      const ref = request.ref;
      const input: EditHookInput = {
        config: request.has_config ? request.config ?? {} : undefined,
        events: request.has_events ? request.events ?? [] : undefined,
        // proto3 `optional` fields arrive with a `_name` marker when they were set.
        branchFilter: request._branch_filter ? request.branch_filter : undefined,
        authorizationHeader: request._authorization_header ? request.authorization_header : undefined,
        active: request._active ? request.active : undefined,
        name: request._name ? request.name : undefined,
      };
      return hookMessage(await editHook(webhooks, scopeOf(ref?.scope), Number(ref?.id), input, caller));
    },
    async DeleteHook(request, { caller }) {
      await deleteHook(webhooks, scopeOf(request.scope), Number(request.id), caller);
      return {};
    },
    async TestHook(request, { caller }) {
      const ref = request.ref;
      const hook = await getHook(webhooks, scopeOf(ref?.scope), Number(ref?.id), caller);
      await deps.tests.enqueueTest(hook, request.push!);
      return {};
    },
    async ListDeliveries(request, { caller }) {
      const ref = request.hook;
      const { items, total } = await listDeliveries(deps, scopeOf(ref?.scope), Number(ref?.id), pageOf(request.page), caller);
      // Lists leave the bodies out; one delivery has them.
      return { deliveries: items.map((d) => deliveryMessage(d, false)), total };
    },
    async GetDelivery(request, { caller }) {
      const ref = request.hook;
      return deliveryMessage(await getDelivery(deps, scopeOf(ref?.scope), Number(ref?.id), request.uuid, caller), true);
    },
    async RedeliverDelivery(request, { caller }) {
      const ref = request.hook;
      return deliveryMessage(await redeliver(deps, scopeOf(ref?.scope), Number(ref?.id), request.uuid, caller), true);
    },
  };
}

export function hooksGrpcService(deps: HooksServiceDeps) {
  return {
    name: HOOKS_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.hooks.v1.HooksService.service,
    implementation: hooksService(deps),
  };
}
