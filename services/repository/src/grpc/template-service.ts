// anvil.repository.v1.TemplateService: the gitignore and license templates creation uses.
import { notFound, type ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import type { TemplateCatalog } from '../domain/repo-templates.js';

export const TEMPLATE_SERVICE_NAME = 'anvil.repository.v1.TemplateService';

export function templateService(catalog: TemplateCatalog): ServiceImplementation<repository.TemplateServiceHandlers> {
  return {
    async ListGitignoreTemplates() {
      return { names: [...catalog.gitignoreNames()] };
    },
    async GetGitignoreTemplate(request) {
      const source = catalog.gitignore(request.name);
      if (source === undefined) throw notFound(`gitignore template ${JSON.stringify(request.name)} does not exist`, 'gitignore_template_not_found');
      return { name: request.name, source };
    },
    async ListLicenseTemplates() {
      return { names: [...catalog.licenseNames()] };
    },
    async GetLicenseTemplate(request) {
      const body = catalog.license(request.name);
      if (body === undefined) throw notFound(`license template ${JSON.stringify(request.name)} does not exist`, 'license_template_not_found');
      return { key: request.name, body };
    },
  };
}

export function templateGrpcService(catalog: TemplateCatalog) {
  return {
    name: TEMPLATE_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.TemplateService.service,
    implementation: templateService(catalog),
  };
}
