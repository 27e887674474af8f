// anvil.repository.v1.LanguageService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getLanguages, type LanguageDeps } from '../domain/language-stats.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';

type ReadDeps = LanguageDeps & ReadAccessDeps;

export const LANGUAGE_SERVICE_NAME = 'anvil.repository.v1.LanguageService';

export function languageService(deps: ReadDeps): ServiceImplementation<repository.LanguageServiceHandlers> {
  return {
    async GetLanguages(request, context) {
      const sizes = await repositoryRead(deps, request, context, (repo) => getLanguages(deps, repo));
      return { languages: sizes.map(([language, bytes]) => ({ language, bytes })) };
    },
  };
}

export function languageGrpcService(deps: ReadDeps) {
  return {
    name: LANGUAGE_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.LanguageService.service,
    implementation: languageService(deps),
  };
}
