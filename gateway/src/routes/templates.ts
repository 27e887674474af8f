// Templates a new repository can start from (routers/api/v1/misc/gitignore.go and
// licenses.go): anyone may list and read them; the repository service owns them, since
// creation writes them into the first commit.
import { ok, type Route } from '../http/route.js';

/** Gitea's GitHub-compatible note on every license it returns. */
const LICENSE_IMPLEMENTATION = 'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

const licenseUrl = (rootUrl: string, key: string) => `${rootUrl}api/v1/licenses/${encodeURIComponent(key)}`;

export const templateRoutes: Route[] = [
  {
    method: 'GET', path: '/gitignore/templates', operationId: 'listGitignoresTemplates', access: 'public', scopes: [],
    async handle(ctx) {
      const reply = await ctx.deps.services.templates.ListGitignoreTemplates({}, { caller: ctx.caller });
      return ok(reply.names);
    },
  },
  {
    method: 'GET', path: '/gitignore/templates/:name', operationId: 'getGitignoreTemplateInfo', access: 'public', scopes: [],
    async handle(ctx) {
      const template = await ctx.deps.services.templates.GetGitignoreTemplate({ name: ctx.params.name }, { caller: ctx.caller });
      return ok({ name: template.name, source: template.source });
    },
  },
  {
    method: 'GET', path: '/licenses', operationId: 'listLicenseTemplates', access: 'public', scopes: [],
    async handle(ctx) {
      const reply = await ctx.deps.services.templates.ListLicenseTemplates({}, { caller: ctx.caller });
      const rootUrl = ctx.deps.config.rootUrl;
      // Gitea names each license by its key (the SPDX id).
      return ok(reply.names.map((key) => ({ key, name: key, url: licenseUrl(rootUrl, key) })));
    },
  },
  {
    method: 'GET', path: '/licenses/:name', operationId: 'getLicenseTemplateInfo', access: 'public', scopes: [],
    async handle(ctx) {
      const license = await ctx.deps.services.templates.GetLicenseTemplate({ name: ctx.params.name }, { caller: ctx.caller });
      return ok({
        key: license.key, name: license.key, url: licenseUrl(ctx.deps.config.rootUrl, license.key),
        body: license.body, implementation: LICENSE_IMPLEMENTATION,
      });
    },
  },
];
