// Stars with Gitea's rules (models/repo/star.go, routers/api/v1/user/star.go): a signed-in
// user stars any repository they can see; starring twice or unstarring what was not starred
// changes nothing; a repository the caller cannot see is 404 whatever they ask.
import { notFound, type Caller } from '@anvil/kit';
import type { Owner } from './owner.js';
import { resolveRepository, type RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';

export interface StarStore {
  /** Adds or removes the star and moves the repository's num_stars with it, in one transaction. */
  setStar(userId: number, repositoryId: number, star: boolean): Promise<void>;
  isStarring(userId: number, repositoryId: number): Promise<boolean>;
  /** Who stars the repository, in the order they starred it, with how many do. */
  stargazers(repositoryId: number, offset: number, limit: number): Promise<{ users: Owner[]; total: number }>;
  /** The repositories the user stars, most recent first. */
  starredRepositoryIds(userId: number): Promise<number[]>;
}

export interface StarDeps {
  store: RepositoryStore;
  stars: StarStore;
}

export async function setStar(deps: StarDeps, owner: string, name: string, caller: Caller, star: boolean): Promise<void> {
  const { repository } = await resolveRepository(deps.store, owner, name, caller);
  await deps.stars.setStar(caller.userId, repository.id, star);
}

export async function checkStar(deps: StarDeps, owner: string, name: string, caller: Caller): Promise<void> {
  const { repository } = await resolveRepository(deps.store, owner, name, caller);
  if (!(await deps.stars.isStarring(caller.userId, repository.id))) throw notFound('The target couldn\'t be found.', 'not_starring');
}

/** Who stars `access`'s repository; the gateway's route table checked the caller may read it. */
export async function listStargazers(deps: StarDeps, { repository }: RepositoryAccess, offset: number, limit: number) {
  return deps.stars.stargazers(repository.id, offset, limit);
}
