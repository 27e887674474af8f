// A repository's URLs as Gitea builds them (Repository.HTMLURL, APIURL, CloneLink): one
// definition for the gateway's presenters and the hooks' payloads.

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

const hostnames = new Map<string, string>();

/** The host name of ROOT_URL (parsed once per value: every user and repository JSON asks). */
export function hostOf(rootUrl: string): string {
  let host = hostnames.get(rootUrl);
  if (host === undefined) hostnames.set(rootUrl, (host = new URL(rootUrl).hostname));
  return host;
}

/** The clone links: `{ROOT_URL}{owner}/{repo}.git` and `git@{host}:{owner}/{repo}.git`. */
export function cloneUrls(rootUrl: string, owner: string, name: string): { https: string; ssh: string } {
  const { html } = repoUrls(rootUrl, owner, name);
  return { https: `${html}.git`, ssh: `git@${hostOf(rootUrl)}:${html.slice(rootUrl.length)}.git` };
}
