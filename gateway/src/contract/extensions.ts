// Operations Anvil serves beyond Gitea's document, declared in the same OpenAPI 2.0 form
// and merged into the contract when it is loaded (document.ts), so they are validated,
// served in /swagger.v1.json and shown in Swagger UI like Gitea's own. Their definitions
// are Anvil's (prefixed `Anvil`, so they never shadow one of Gitea's).
//
// Webhook deliveries (Gitea has none: go-gitea/gitea#22141 is still open): a hook's recent
// deliveries, one delivery with its request and response, and redelivery, for repository,
// organization, user and site hooks alike.
import type { SwaggerDocument, SwaggerParameter, SwaggerSchema } from './document.js';

const headers: SwaggerSchema = { type: 'object', additionalProperties: { type: 'string' } };

const definitions: Record<string, SwaggerSchema> = {
  AnvilHookDelivery: {
    description: 'AnvilHookDelivery is one event sent (or to be sent) to a webhook, with its last attempt.',
    type: 'object',
    required: ['id', 'uuid', 'event', 'event_type', 'status', 'attempts', 'request', 'created_at'],
    properties: {
      id: { type: 'integer', format: 'int64' },
      uuid: { type: 'string', description: 'The X-Gitea-Delivery header of every attempt' },
      event: { type: 'string', description: 'The coarse event (X-Gitea-Event)' },
      event_type: { type: 'string', description: 'The granular event (X-Gitea-Event-Type)' },
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: { type: 'integer', format: 'int64' },
      request: {
        type: 'object',
        properties: { url: { type: 'string' }, http_method: { type: 'string' }, headers, body: { type: 'string', description: 'Only on a single delivery' } },
      },
      response: {
        type: 'object',
        description: 'The last answer; absent before the first attempt or when none came',
        properties: { status: { type: 'integer', format: 'int64' }, headers, body: { type: 'string', description: 'Only on a single delivery' } },
      },
      error: { type: 'string', description: 'Why the last attempt got no answer (timeout, refused target, ...)' },
      duration_ms: { type: 'integer', format: 'int64' },
      created_at: { type: 'string', format: 'date-time' },
      delivered_at: { type: 'string', format: 'date-time', description: 'The last attempt; absent before the first' },
      next_attempt_at: { type: 'string', format: 'date-time', description: 'Pending deliveries only' },
    },
  },
};

const errors = { 404: { $ref: '#/responses/notFound' } };
const pathParam = (name: string, description: string, type = 'string'): SwaggerParameter =>
  ({ name, in: 'path', required: true, type, ...(type === 'integer' ? { format: 'int64' } : {}), description });

interface Scope {
  prefix: 'repo' | 'org' | 'user' | 'admin';
  base: string;
  tag: string;
  params: SwaggerParameter[];
}

const SCOPES: Scope[] = [
  { prefix: 'repo', base: '/repos/{owner}/{repo}/hooks/{id}', tag: 'repository', params: [pathParam('owner', 'owner of the repo'), pathParam('repo', 'name of the repo')] },
  { prefix: 'org', base: '/orgs/{org}/hooks/{id}', tag: 'organization', params: [pathParam('org', 'name of the organization')] },
  { prefix: 'user', base: '/user/hooks/{id}', tag: 'user', params: [] },
  { prefix: 'admin', base: '/admin/hooks/{id}', tag: 'admin', params: [] },
];

function scopePaths(scope: Scope): SwaggerDocument['paths'] {
  const hookParams = [...scope.params, pathParam('id', 'id of the hook', 'integer')];
  const deliveryParams = [...hookParams, pathParam('delivery_id', 'uuid of the delivery (X-Gitea-Delivery)')];
  const delivery = { description: 'HookDelivery', schema: { $ref: '#/definitions/AnvilHookDelivery' } };
  return {
    [`${scope.base}/deliveries`]: {
      get: {
        operationId: `${scope.prefix}ListHookDeliveries`, tags: [scope.tag], produces: ['application/json'],
        summary: 'List a hook\'s deliveries, most recent first (Anvil)',
        parameters: [...hookParams,
          { name: 'page', in: 'query', type: 'integer', description: 'page number of results to return (1-based)' },
          { name: 'limit', in: 'query', type: 'integer', description: 'page size of results' }],
        responses: { 200: { description: 'HookDeliveryList', schema: { type: 'array', items: { $ref: '#/definitions/AnvilHookDelivery' } } }, ...errors },
      },
    },
    [`${scope.base}/deliveries/{delivery_id}`]: {
      get: {
        operationId: `${scope.prefix}GetHookDelivery`, tags: [scope.tag], produces: ['application/json'],
        summary: 'Get a delivery with its request and response (Anvil)', parameters: deliveryParams,
        responses: { 200: delivery, ...errors },
      },
    },
    [`${scope.base}/deliveries/{delivery_id}/attempts`]: {
      post: {
        operationId: `${scope.prefix}RedeliverHookDelivery`, tags: [scope.tag], produces: ['application/json'],
        summary: 'Deliver again: the same delivery and body, queued now (Anvil)', parameters: deliveryParams,
        responses: { 202: delivery, 422: { $ref: '#/responses/validationError' }, ...errors },
      },
    },
  };
}

/** Anvil's own paths and definitions, in the contract's form. */
export function anvilExtensions(): Pick<SwaggerDocument, 'paths' | 'definitions'> {
  return { paths: Object.assign({}, ...SCOPES.map(scopePaths)), definitions };
}
