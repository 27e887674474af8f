// anvil.collaboration.v1.SubscriptionService: decode the request, call the subscription
// domain with the repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { checkSubscription, listSubscribers, setSubscription, type SubscriptionDeps } from '../domain/subscriptions.js';
import { pageOf } from './issue-service.js';
import { userMessage } from './messages.js';

export const SUBSCRIPTION_SERVICE_NAME = 'anvil.collaboration.v1.SubscriptionService';

export function subscriptionService(deps: SubscriptionDeps): ServiceImplementation<collaboration.SubscriptionServiceHandlers> {
  return {
    async ListSubscribers(request, { repository }) {
      const { items, total } = await listSubscribers(deps, repository, request.index, pageOf(request.page));
      return { users: items.map(userMessage), total };
    },
    async CheckSubscription(request, { caller, repository }) {
      return { subscribed: await checkSubscription(deps, repository, caller, request.index) };
    },
    async SetSubscription(request, { caller, repository }) {
      return { changed: await setSubscription(deps, repository, caller, request.index, request.login, request.watch) };
    },
  };
}

export function subscriptionGrpcService(deps: SubscriptionDeps) {
  return {
    name: SUBSCRIPTION_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.SubscriptionService.service,
    implementation: subscriptionService(deps),
  };
}
