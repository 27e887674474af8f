// Discord messages as Gitea's services/webhook/discord.go writes them: one embed with a
// title, the body where there is one, a link, a colour, and the sender as its author.
import { convert, type ChatConvertor } from './convertor.js';
import {
  commentInfo, commitCount, escapeSegments, GREEN, issueInfo, noLink, pullInfo, RED, REVIEW_VERDICTS, shortRefName, statusInfo,
  type Payload,
} from './general.js';
import type { HookEvent } from '../../domain/hook-events.js';

/** Discord shows the first line of a commit message, cut at 50 characters as GitHub does. */
function summaryLine(message: string): string {
  const first = String(message ?? '').split('\n')[0].replace(/\r+$/, '');
  const chars = [...first];
  return chars.length > 50 ? `${chars.slice(0, 47).join('')}...` : first;
}

const discordConvertor: ChatConvertor<object> = (() => {
  const embed = (p: Payload, title: string, description: string, url: string, color: number) => ({
    // Gitea's Discord hooks take a username and avatar only from its web form, never from the
    // API's config: a hook made through the API sends neither.
    wait: false, content: '', username: '', tts: false,
    embeds: [{
      title, description, url, color, footer: { text: '' },
      author: { name: p.sender?.login ?? '', url: p.sender?.html_url ?? '', icon_url: p.sender?.avatar_url ?? '' },
      fields: null,
    }],
  });
  const refPage = (p: Payload) => `${p.repository?.html_url}/src/${escapeSegments(shortRefName(p.ref))}`;
  return {
    create: (p) => embed(p, `[${p.repository?.full_name}] ${p.ref_type} ${shortRefName(p.ref)} created`, '', refPage(p), GREEN),
    delete: (p) => embed(p, `[${p.repository?.full_name}] ${p.ref_type} ${shortRefName(p.ref)} deleted`, '', refPage(p), RED),
    fork: (p) => embed(p, `${p.forkee?.full_name} is forked to ${p.repository?.full_name}`, '', p.repository?.html_url, GREEN),
    push(p) {
      const total = Number(p.total_commits ?? 0);
      const commits: Payload[] = p.commits ?? [];
      const link = (total === 1 ? commits[0]?.url : p.compare_url) || `${p.repository?.html_url}/src/${escapeSegments(shortRefName(p.ref))}`;
      const text = commits.map((c) => `[${String(c.id).slice(0, 7)}](${c.url}) ${summaryLine(c.message)} - ${c.author?.name}`).join('\n');
      return embed(p, `[${p.repository?.full_name}:${shortRefName(p.ref)}] ${commitCount(total)}`, text, link, GREEN);
    },
    issue(p) {
      const info = issueInfo(p, noLink, false);
      return embed(p, info.text, info.extra, p.issue?.html_url, info.color);
    },
    issueComment(p) {
      const info = commentInfo(p, noLink, false);
      return embed(p, info.text, p.comment?.body ?? '', p.comment?.html_url, info.color);
    },
    pullRequest(p) {
      const info = pullInfo(p, noLink, false);
      return embed(p, info.text, info.extra, p.pull_request?.html_url, info.color);
    },
    review(p, event) {
      const [verdict, color] = REVIEW_VERDICTS[event];
      const title = `[${p.repository?.full_name}] Pull request review ${verdict}: #${p.number} ${p.pull_request?.title}`;
      return embed(p, title, p.review?.content ?? '', p.pull_request?.html_url, color);
    },
    repository(p) {
      if (p.action === 'created') return embed(p, `[${p.repository?.full_name}] Repository created`, '', p.repository?.html_url, GREEN);
      if (p.action === 'deleted') return embed(p, `[${p.repository?.full_name}] Repository deleted`, '', '', RED);
      return embed(p, '', '', '', 0);
    },
    status(p) {
      const info = statusInfo(p, noLink, false);
      return embed(p, info.text, '', p.target_url ?? '', info.color);
    },
  };
})();

export const discordMessage = (event: HookEvent, payload: Payload) => convert(discordConvertor, event, payload);
