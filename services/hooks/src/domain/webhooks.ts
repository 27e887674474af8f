// Webhook configuration (Gitea's routers/api/v1/utils/hook.go addHook/editHook): validate a
// request's type, config, events and branch filter, then store it in its scope. Who may
// manage a scope's hooks is decided by the gateway before it calls (repository admins,
// organization owners, the user, site admins); the site scope is checked here as well.
import { forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { isValidBranchFilter } from './glob.js';
import { chosenEvents, type HookEvent } from './hook-events.js';
import { checkContentType, checkHookType, type HookContentType, type HookType } from './hook-types.js';

/** Exactly one of a repository, an owner (user or organization), or the site. */
export type HookScope =
  | { kind: 'repository'; repoId: number }
  | { kind: 'owner'; ownerId: number }
  | { kind: 'site'; list: 'system' | 'default' | 'all' };

export interface Webhook {
  id: number;
  repoId: number;
  ownerId: number;
  isSystemWebhook: boolean;
  type: HookType;
  name: string;
  url: string;
  contentType: HookContentType;
  secret: string;
  authorizationHeader: string;
  events: HookEvent[];
  branchFilter: string;
  meta: Record<string, string>;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type NewWebhook = Omit<Webhook, 'id' | 'createdAt' | 'updatedAt'>;
export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'contentType' | 'secret' | 'authorizationHeader' | 'events' | 'branchFilter' | 'meta' | 'active' | 'name'>>;

/** How webhooks are kept; src/store/webhooks.ts implements it over Prisma. */
export interface WebhookStore {
  create(hook: NewWebhook): Promise<Webhook>;
  find(scope: HookScope, id: number): Promise<Webhook | undefined>;
  list(scope: HookScope, page: { offset: number; limit: number }): Promise<{ items: Webhook[]; total: number }>;
  update(id: number, changes: WebhookChanges): Promise<Webhook>;
  remove(scope: HookScope, id: number): Promise<boolean>;
}

export interface CreateHookInput {
  type: string;
  name: string;
  config: Record<string, string>;
  events: string[];
  branchFilter: string;
  authorizationHeader: string;
  active: boolean;
}

export interface EditHookInput {
  config?: Record<string, string>;
  /** Absent: kept; empty: the default (push). */
  events?: string[];
  branchFilter?: string;
  authorizationHeader?: string;
  active?: boolean;
  name?: string;
}

function checkSite(scope: HookScope, caller: Caller): void {
  if (scope.kind === 'site' && !caller.isAdmin) throw forbidden('user should be the site admin', 'site_admin_required');
}

/** A hook's target: an absolute http(s) URL (Gitea's binding `ValidUrl`). */
function checkUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL | undefined;
  try {
    parsed = new URL(trimmed);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw invalid('Invalid url', 'invalid_hook_url');
  return trimmed;
}

function checkBranchFilter(filter: string): string {
  if (!isValidBranchFilter(filter)) throw invalid(`Invalid branch filter: ${filter}`, 'invalid_branch_filter');
  return filter;
}

/** Slack's settings (Gitea's SlackMeta); a channel is required and must look like one. */
function slackMeta(config: Record<string, string>, previous?: Record<string, string>): Record<string, string> {
  const channel = (config.channel ?? previous?.channel ?? '').trim();
  if (!channel) throw invalid('Missing config option: channel', 'missing_hook_config');
  // Gitea's IsValidSlackChannel: "#name" or "@name" or a bare name, no spaces.
  if (!/^[#@]?[^\s#@]+$/.test(channel)) throw invalid('Invalid slack channel name', 'invalid_slack_channel');
  const keep = (key: string) => config[key] ?? previous?.[key] ?? '';
  return { channel, username: keep('username'), icon_url: keep('icon_url'), color: keep('color') };
}

export async function createHook(store: WebhookStore, scope: HookScope, input: CreateHookInput, caller: Caller): Promise<Webhook> {
  checkSite(scope, caller);
  const type = checkHookType(input.type);
  for (const key of ['url', 'content_type']) {
    if (!Object.hasOwn(input.config, key)) throw invalid(`Missing config option: ${key}`, 'missing_hook_config');
  }
  return store.create({
    repoId: scope.kind === 'repository' ? scope.repoId : 0,
    ownerId: scope.kind === 'owner' ? scope.ownerId : 0,
    // Hooks made through /admin/hooks are system hooks (they fire for every repository).
    isSystemWebhook: scope.kind === 'site',
    type,
    name: input.name.trim(),
    url: checkUrl(input.config.url),
    contentType: checkContentType(input.config.content_type),
    secret: input.config.secret ?? '',
    authorizationHeader: input.authorizationHeader.trim(),
    events: chosenEvents(input.events),
    branchFilter: checkBranchFilter(input.branchFilter),
    meta: type === 'slack' ? slackMeta(input.config) : {},
    active: input.active,
  });
}

export async function getHook(store: WebhookStore, scope: HookScope, id: number, caller: Caller): Promise<Webhook> {
  checkSite(scope, caller);
  const hook = await store.find(scope, id);
  if (!hook) throw notFound(`webhook does not exist [id: ${id}]`, 'hook_not_found');
  return hook;
}

export async function listHooks(store: WebhookStore, scope: HookScope, page: { offset: number; limit: number }, caller: Caller) {
  checkSite(scope, caller);
  return store.list(scope, page);
}

/**
 * PATCH: config keys present change; events given are replaced (an empty list → the default,
 * as Gitea's editHook); branch filter, authorization header, active and name change when
 * given. Unlike Gitea, a PATCH without `events` keeps the hook's events (Gitea resets them
 * to push, so `{"active": false}` would silently turn an issues hook into a push hook).
 */
export async function editHook(store: WebhookStore, scope: HookScope, id: number, input: EditHookInput, caller: Caller): Promise<Webhook> {
  const hook = await getHook(store, scope, id, caller);
  const changes: WebhookChanges = input.events ? { events: chosenEvents(input.events) } : {};
  const config = input.config;
  if (config) {
    if (Object.hasOwn(config, 'url')) changes.url = checkUrl(config.url);
    if (Object.hasOwn(config, 'content_type')) changes.contentType = checkContentType(config.content_type);
    if (Object.hasOwn(config, 'secret')) changes.secret = config.secret;
    if (hook.type === 'slack' && Object.hasOwn(config, 'channel')) changes.meta = slackMeta(config, hook.meta);
  }
  if (input.branchFilter !== undefined) changes.branchFilter = checkBranchFilter(input.branchFilter);
  if (input.authorizationHeader !== undefined) changes.authorizationHeader = input.authorizationHeader.trim();
  if (input.active !== undefined) changes.active = input.active;
  if (input.name !== undefined) changes.name = input.name.trim();
  return store.update(hook.id, changes);
}

export async function deleteHook(store: WebhookStore, scope: HookScope, id: number, caller: Caller): Promise<void> {
  checkSite(scope, caller);
  if (!(await store.remove(scope, id))) throw notFound(`webhook does not exist [id: ${id}]`, 'hook_not_found');
}
