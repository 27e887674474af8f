// A repository's URLs as Gitea builds them (Repository.HTMLURL, APIURL, CloneLink): one
// definition for every presenter that links to a repository.
import { hostOf } from './user.js';

export interface RepoUrls {
  /** `{ROOT_URL}{owner}/{repo}` */
  html: string;
  /** `{ROOT_URL}api/v1/repos/{owner}/{repo}` */
  api: string;
}

export function repoUrls(rootUrl: string, owner: string, name: string): RepoUrls {
  const path = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  return { html: `${rootUrl}${path}`, api: `${rootUrl}api/v1/repos/${path}` };
}

/** The clone links: `{ROOT_URL}{owner}/{repo}.git` and `git@{host}:{owner}/{repo}.git`. */
export function cloneUrls(rootUrl: string, owner: string, name: string): { https: string; ssh: string } {
  const { html } = repoUrls(rootUrl, owner, name);
  return { https: `${html}.git`, ssh: `git@${hostOf(rootUrl)}:${html.slice(rootUrl.length)}.git` };
}
