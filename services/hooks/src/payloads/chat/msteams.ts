// Microsoft Teams messages as Gitea's services/webhook/msteams.go writes them: a MessageCard
// with a title, the sender as the section's activity, facts (the repository and one fact of
// the event), the body where there is one, and a button to the page.
import { convert, type ChatConvertor } from './convertor.js';
import {
  commentInfo, commitCount, escapeSegments, GREEN, hexColor, issueInfo, noLink, pullInfo, REVIEW_VERDICTS, shortRefName, statusInfo,
  YELLOW, type Payload,
} from './general.js';
import type { HookEvent } from '../../domain/hook-events.js';

interface Fact {
  name: string;
  value: string;
}

function card(repo: Payload | undefined, p: Payload, title: string, text: string, target: string, color: number, fact?: Fact) {
  const facts = [...(repo ? [{ name: 'Repository:', value: repo.full_name }] : []), ...(fact ? [fact] : [])];
  return {
    '@type': 'MessageCard', '@context': 'https://schema.org/extensions', themeColor: hexColor(color), title, summary: title,
    sections: [{
      activityTitle: p.sender?.full_name ?? '', activitySubtitle: p.sender?.login ?? '', activityImage: p.sender?.avatar_url ?? '',
      facts, text,
    }],
    potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: target }] }],
  };
}

const msteamsConvertor: ChatConvertor<object> = {
  create(p) {
    const ref = shortRefName(p.ref);
    return card(p.repository, p, `[${p.repository?.full_name}] ${p.ref_type} ${ref} created`, '',
      `${p.repository?.html_url}/src/${escapeSegments(ref)}`, GREEN, { name: `${p.ref_type}:`, value: ref });
  },
  delete(p) {
    const ref = shortRefName(p.ref);
    return card(p.repository, p, `[${p.repository?.full_name}] ${p.ref_type} ${ref} deleted`, '',
      `${p.repository?.html_url}/src/${escapeSegments(ref)}`, YELLOW, { name: `${p.ref_type}:`, value: ref });
  },
  fork: (p) => card(p.repository, p, `${p.forkee?.full_name} is forked to ${p.repository?.full_name}`, '', p.repository?.html_url, GREEN,
    { name: 'Forkee:', value: p.forkee?.full_name }),
  push(p) {
    const total = Number(p.total_commits ?? 0);
    const commits: Payload[] = p.commits ?? [];
    const link = (total === 1 ? commits[0]?.url : p.compare_url) || `${p.repository?.html_url}/src/${escapeSegments(shortRefName(p.ref))}`;
    // Teams keeps the whole message, its trailing line breaks trimmed; commits a blank line apart.
    const text = commits.map((c) => `[${String(c.id).slice(0, 7)}](${c.url}) ${String(c.message ?? '').replace(/[\r\n]+$/, '')} - ${c.author?.name}`).join('\n\n');
    return card(p.repository, p, `[${p.repository?.full_name}:${shortRefName(p.ref)}] ${commitCount(total)}`, text, link, GREEN,
      { name: 'Commit count:', value: String(total) });
  },
  issue(p) {
    const info = issueInfo(p, noLink, false);
    return card(p.repository, p, info.text, info.extra, p.issue?.html_url, info.color, { name: 'Issue #:', value: String(p.issue?.id) });
  },
  issueComment(p) {
    const info = commentInfo(p, noLink, false);
    return card(p.repository, p, info.text, p.comment?.body ?? '', p.comment?.html_url, info.color, { name: 'Issue #:', value: String(p.issue?.id) });
  },
  pullRequest(p) {
    const info = pullInfo(p, noLink, false);
    return card(p.repository, p, info.text, info.extra, p.pull_request?.html_url, info.color,
      { name: 'Pull request #:', value: String(p.pull_request?.id) });
  },
  review(p, event) {
    const [verdict, color] = REVIEW_VERDICTS[event];
    const title = `[${p.repository?.full_name}] Pull request review ${verdict}: #${p.number} ${p.pull_request?.title}`;
    return card(p.repository, p, title, p.review?.content ?? '', p.pull_request?.html_url, color,
      { name: 'Pull request #:', value: String(p.pull_request?.id) });
  },
  repository(p) {
    if (p.action === 'created') return card(p.repository, p, `[${p.repository?.full_name}] Repository created`, '', p.repository?.html_url, GREEN);
    if (p.action === 'deleted') return card(p.repository, p, `[${p.repository?.full_name}] Repository deleted`, '', '', YELLOW);
    return card(p.repository, p, '', '', '', 0);
  },
  status(p) {
    const info = statusInfo(p, noLink, false);
    return card(p.repository, p, info.text, '', p.target_url ?? '', info.color, { name: 'CommitStatus:', value: p.context });
  },
};

export const msteamsMessage = (event: HookEvent, payload: Payload) => convert(msteamsConvertor, event, payload);
