// A repository's URLs as Gitea builds them: the kit's one definition (kit repo-urls.ts).
export { cloneUrls, repoUrls, type RepoUrls } from '@anvil/kit';
