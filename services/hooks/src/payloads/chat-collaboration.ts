// What chat messages say about issues, pull requests, comments and reviews, in the words of
// Gitea's services/webhook/general.go (getIssuesPayloadInfo, getPullRequestPayloadInfo,
// getIssueCommentPayloadInfo, and the review line of slack.go/discord.go/msteams.go).
import type { Summary } from './chat.js';

type Payload = Record<string, any>;

// Gitea's palette (services/webhook/general.go).
const GREEN = 0x1db954;
const YELLOW = 0xffd930;
const GREY = 0xc0c0c0;
const ORANGE = 0xff7200;
const ORANGE_LIGHT = 0xf2a154;
const RED = 0xff3232;

/** action → [what Gitea says after "Issue"/"Pull request", colour]. */
function actionLine(payload: Payload, subject: Payload): [string, number] | undefined {
  const names = (users: Payload[] | null | undefined) => (users ?? []).map((u) => u.login).join(', ');
  switch (payload.action) {
    case 'opened': return ['opened', ORANGE];
    case 'closed': return [subject.merged ? 'merged' : 'closed', subject.merged ? GREEN : RED];
    case 'reopened': return ['re-opened', YELLOW];
    case 'edited': return ['edited', YELLOW];
    case 'assigned': return [`assigned to ${names(subject.assignees)}`, GREEN];
    case 'unassigned': return ['unassigned', YELLOW];
    case 'label_updated': return ['labels updated', YELLOW];
    case 'label_cleared': return ['labels cleared', YELLOW];
    case 'synchronized': return ['synchronized', YELLOW];
    case 'milestoned': return [`milestoned to ${subject.milestone?.title ?? ''}`, YELLOW];
    case 'demilestoned': return ['milestone cleared', YELLOW];
    case 'review_requested': return [`review requested from ${payload.requested_reviewer?.login ?? ''}`, YELLOW];
    case 'review_request_removed': return [`review request removed for ${payload.requested_reviewer?.login ?? ''}`, YELLOW];
    case 'deleted': return ['deleted', RED];
    default: return undefined;
  }
}

const REVIEW_WORDS: Record<string, [string, number]> = {
  pull_request_review_approved: ['approved', GREEN],
  pull_request_review_rejected: ['changes requested', RED],
  pull_request_review_comment: ['comment', GREY],
};

/** The summary of a collaboration payload, or undefined when it is not one. */
export function collaborationSummary(payload: Payload): Summary | undefined {
  const repo = payload.repository ?? {};
  const by = payload.sender?.login ? ` by ${payload.sender.login}` : '';
  if (payload.comment && payload.issue) {
    const kind = payload.is_pull ? 'pull request' : 'issue';
    const verb = payload.action === 'created' ? 'New comment on' : payload.action === 'edited' ? 'Comment edited on' : 'Comment deleted on';
    return {
      title: `[${repo.full_name}] ${verb} ${kind} #${payload.issue.number} ${payload.issue.title}${by}`,
      text: payload.action === 'deleted' ? '' : payload.comment.body ?? '', url: payload.comment.html_url ?? payload.issue.html_url,
      color: payload.action === 'deleted' ? RED : ORANGE_LIGHT,
    };
  }
  const pull = payload.pull_request;
  if (pull) {
    const title = `#${pull.number} ${pull.title}`;
    if (payload.action === 'reviewed') {
      const [word, color] = REVIEW_WORDS[payload.review?.type] ?? ['reviewed', GREY];
      return { title: `[${repo.full_name}] Pull request review ${word}: ${title}${by}`, text: payload.review?.content ?? '', url: pull.html_url, color };
    }
    const line = actionLine(payload, pull);
    if (!line) return undefined;
    const text = payload.action === 'opened' || payload.action === 'edited' ? pull.body ?? '' : '';
    return { title: `[${repo.full_name}] Pull request ${line[0]}: ${title}${by}`, text, url: pull.html_url, color: line[1] };
  }
  const issue = payload.issue;
  if (issue) {
    const line = actionLine(payload, issue);
    if (!line) return undefined;
    const text = payload.action === 'opened' || payload.action === 'edited' ? issue.body ?? '' : '';
    return { title: `[${repo.full_name}] Issue ${line[0]}: #${issue.number} ${issue.title}${by}`, text, url: issue.html_url, color: line[1] };
  }
  return undefined;
}
