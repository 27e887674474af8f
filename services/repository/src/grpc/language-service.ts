// anvil.repository.v1.LanguageService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { repositoryOf } from './requests.js';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getLanguages, type LanguageDeps } from '../domain/language-stats.js';

export const LANGUAGE_SERVICE_NAME = 'anvil.repository.v1.LanguageService';

export function languageService(deps: LanguageDeps): ServiceImplementation<repository.LanguageServiceHandlers> {
  return {
    async GetLanguages(request, context) {
      const sizes = await getLanguages(deps, await repositoryOf(deps.store, request, context));
      return { languages: sizes.map(([language, bytes]) => ({ language, bytes })) };
    },
  };
}

export function languageGrpcService(deps: LanguageDeps) {
  return {
    name: LANGUAGE_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.LanguageService.service,
    implementation: languageService(deps),
  };
}
