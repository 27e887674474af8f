// The words and colours every chat type shares, as Gitea's services/webhook/general.go has
// them: the title line of an issue, pull request, comment or status change ("[ada/app]
// Issue opened: #4 It breaks"), with links in each chat's own syntax (a LinkFormatter) and
// the sender's name at the end where the chat type asks for it.

/** A payload as the hooks service built it (payloads/gitea.ts, payloads/collaboration.ts): Gitea's JSON. */
export type Payload = Record<string, any>;

/** How a chat writes a link: Slack `<url|text>`, plain text for Discord and Teams titles. */
export type LinkFormatter = (url: string, text: string) => string;

export const noLink: LinkFormatter = (_url, text) => text;

// Gitea's palette (declared in its discord.go, used by every chat type).
export const GREEN = 0x1ac600;
export const GREEN_LIGHT = 0xbfe5bf;
export const YELLOW = 0xffd930;
export const GREY = 0x4f545c;
export const PURPLE = 0x7289da;
export const ORANGE = 0xeb6420;
export const ORANGE_LIGHT = 0xe68d60;
export const RED = 0xff3232;

/** A colour as Slack attachments and Teams cards take it: Go's `%x`, lower case, no padding. */
export const hexColor = (color: number) => color.toString(16);

/** What a line about an issue or pull request says, and the parts a chat may show apart. */
export interface PayloadInfo {
  text: string;
  /** `#4 It breaks` */
  title: string;
  /** The body worth showing under the line (an opened or edited issue's, a review's), or ''. */
  extra: string;
  color: number;
}

/** ` by ada`, linked to ada's page where the chat links. */
const bySender = (p: Payload, link: LinkFormatter) => ` by ${link(p.sender?.html_url ?? '', p.sender?.login ?? '')}`;

/** The assignees, each linked to their page. */
const assigneeLinks = (assignees: Payload[] | null | undefined, link: LinkFormatter) =>
  (assignees ?? []).map((u) => link(u.html_url ?? '', u.login ?? '')).join(', ');

/** The words after "Issue" or "Pull request" and the colour, for the actions the two share. */
function sharedAction(p: Payload, subject: Payload, link: LinkFormatter): [string, number] | undefined {
  switch (p.action) {
    case 'reopened': return ['re-opened', YELLOW];
    case 'edited': return ['edited', YELLOW];
    case 'assigned': return [`assigned to ${assigneeLinks(subject.assignees, link)}`, GREEN];
    case 'unassigned': return ['unassigned', YELLOW];
    case 'label_updated': return ['labels updated', YELLOW];
    case 'label_cleared': return ['labels cleared', YELLOW];
    case 'synchronized': return ['synchronized', YELLOW];
    case 'milestoned': return [`milestoned to ${link(`${p.repository?.html_url}/milestone/${subject.milestone?.id}`, subject.milestone?.title ?? '')}`, YELLOW];
    case 'demilestoned': return ['milestone cleared', YELLOW];
    default: return undefined;
  }
}

/** `[owner/repo] Issue opened: #4 It breaks`, linked where the chat links, and ` by ada` when asked. */
function line(p: Payload, link: LinkFormatter, withSender: boolean, what: string, titleLink: string, action?: [string, number]): string {
  const text = action ? `[${link(p.repository?.html_url, p.repository?.full_name)}] ${what} ${action[0]}: ${titleLink}` : '';
  return withSender ? text + bySender(p, link) : text;
}

/** Gitea's getIssuesPayloadInfo. An action it has no words for leaves the line empty, as there. */
export function issueInfo(p: Payload, link: LinkFormatter, withSender: boolean): PayloadInfo {
  const issue = p.issue ?? {};
  const title = `#${p.number} ${issue.title}`;
  const action: [string, number] | undefined = p.action === 'opened' ? ['opened', ORANGE]
    : p.action === 'closed' ? ['closed', RED] : sharedAction(p, issue, link);
  const text = line(p, link, withSender, 'Issue', link(`${p.repository?.html_url}/issues/${p.number}`, title), action);
  const extra = p.action === 'opened' || p.action === 'edited' ? issue.body ?? '' : '';
  return { text, title, extra, color: action?.[1] ?? YELLOW };
}

/** Gitea's getPullRequestPayloadInfo. */
export function pullInfo(p: Payload, link: LinkFormatter, withSender: boolean): PayloadInfo {
  const pull = p.pull_request ?? {};
  const title = `#${p.number} ${pull.title}`;
  const only: Record<string, [string, number]> = {
    opened: ['opened', GREEN], closed: pull.merged ? ['merged', PURPLE] : ['closed', RED], reviewed: ['reviewed', YELLOW],
    review_requested: ['review requested', YELLOW], review_request_removed: ['review request removed', YELLOW],
  };
  const action = Object.hasOwn(only, p.action) ? only[p.action] : sharedAction(p, pull, link);
  const text = line(p, link, withSender, 'Pull request', link(pull.url, title), action);
  const extra = p.action === 'opened' || p.action === 'edited' ? pull.body ?? '' : p.action === 'reviewed' ? p.review?.content ?? '' : '';
  return { text, title, extra, color: action?.[1] ?? YELLOW };
}

/** Gitea's getIssueCommentPayloadInfo: the line and colour; the comment's body is the chat's to show. */
export function commentInfo(p: Payload, link: LinkFormatter, withSender: boolean): PayloadInfo {
  const repo = p.repository ?? {};
  const title = `#${p.issue?.number} ${p.issue?.title}`;
  const kind = p.is_pull ? 'pull request' : 'issue';
  const titleLink = link(p.is_pull ? p.comment?.pull_request_url : p.comment?.issue_url, title);
  const repoLink = link(repo.html_url, repo.full_name);
  let color = YELLOW;
  let text = '';
  switch (p.action) {
    case 'created':
      text = `[${repoLink}] New comment on ${kind} ${titleLink}`;
      color = p.is_pull ? GREEN_LIGHT : ORANGE_LIGHT;
      break;
    case 'edited': text = `[${repoLink}] Comment edited on ${kind} ${titleLink}`; break;
    case 'deleted': text = `[${repoLink}] Comment deleted on ${kind} ${titleLink}`; color = RED; break;
  }
  if (withSender) text += bySender(p, link);
  return { text, title, extra: '', color };
}

/** Gitea's getStatusPayloadInfo: `Commit Status changed: ci/build[<sha>]:ok`. */
export function statusInfo(p: Payload, link: LinkFormatter, withSender: boolean): { text: string; color: number } {
  let text = `Commit Status changed: ${link(p.target_url ?? '', `${p.context}[${p.sha}]:${p.description}`)}`;
  if (withSender) text += bySender(p, link);
  return { text, color: GREEN };
}

/** What a review said, in the words of Gitea's parseHookPullRequestEventType, and its colour. */
export const REVIEW_VERDICTS = {
  pull_request_review_approved: ['approved', GREEN],
  pull_request_review_rejected: ['rejected', RED],
  pull_request_review_comment: ['comment', GREY],
} as const satisfies Record<string, readonly [string, number]>;

export type ReviewEvent = keyof typeof REVIEW_VERDICTS;

/** `refs/heads/main` → `main`, `refs/tags/v1` → `v1`; a short name stays as it is. */
export const shortRefName = (ref: string) => String(ref ?? '').replace(/^refs\/(heads|tags)\//, '');

/** Each segment of a ref or path escaped, the slashes kept (Gitea's util.PathEscapeSegments). */
export const escapeSegments = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * The page of a ref (Gitea's git.RefURL): a tag's under `/src/tag/`, anything else a branch's.
 * A create or delete payload names its ref by its short name and `ref_type`; Gitea links
 * such a tag as a branch, which leads nowhere, so the type decides here.
 */
export function refUrl(repoUrl: string, ref: string, refType?: string): string {
  const isTag = String(ref ?? '').startsWith('refs/tags/') || refType === 'tag';
  return `${repoUrl}/src/${isTag ? 'tag' : 'branch'}/${escapeSegments(shortRefName(ref))}`;
}

/** `1 new commit`, `3 new commits`. */
export const commitCount = (n: number) => (n === 1 ? '1 new commit' : `${n} new commits`);
