// Public miscellany: the server version and the site settings (no scope, no sign-in).
import { presentAPISettings, presentAttachmentSettings, presentRepoSettings, presentUISettings } from '@anvil/presenters/settings.js';
import { ok, type Route } from '../http/route.js';

/**
 * Clients gate features on the version they read here (the Go SDK refuses some calls
 * below a Gitea version), so Anvil reports the Gitea release whose API it implements,
 * with its own version as build metadata.
 */
export const ANVIL_VERSION = '0.1.0';
export const REPORTED_VERSION = `1.27.1+anvil-${ANVIL_VERSION}`;

export const miscRoutes: Route[] = [
  { method: 'GET', path: '/version', operationId: 'getVersion', access: 'public', scopes: [],
    handle: async () => ok({ version: REPORTED_VERSION }) },
  { method: 'GET', path: '/settings/ui', operationId: 'getGeneralUISettings', access: 'public', scopes: [],
    handle: async ({ deps }) => ok(presentUISettings(deps.config.settings)) },
  { method: 'GET', path: '/settings/api', operationId: 'getGeneralAPISettings', access: 'public', scopes: [],
    handle: async ({ deps }) => ok(presentAPISettings(deps.config.settings)) },
  { method: 'GET', path: '/settings/repository', operationId: 'getGeneralRepositorySettings', access: 'public', scopes: [],
    handle: async ({ deps }) => ok(presentRepoSettings(deps.config.settings)) },
  { method: 'GET', path: '/settings/attachment', operationId: 'getGeneralAttachmentSettings', access: 'public', scopes: [],
    handle: async ({ deps }) => ok(presentAttachmentSettings(deps.config.settings)) },
];
