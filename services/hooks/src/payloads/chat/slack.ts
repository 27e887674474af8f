// Slack messages as Gitea's services/webhook/slack.go writes them: a text line with Slack's
// `<url|text>` links, and an attachment with the body where there is one (an opened issue's,
// a comment's, a push's commit list).
import { convert, type ChatConvertor } from './convertor.js';
import {
  commentInfo, commitCount, hexColor, issueInfo, noLink, pullInfo, REVIEW_VERDICTS, refUrl, shortRefName, statusInfo,
  type LinkFormatter, type Payload,
} from './general.js';
import type { HookEvent } from '../../domain/hook-events.js';

/** A Slack hook's settings (its `config` in the API). */
export interface SlackMeta {
  channel?: string;
  username?: string;
  icon_url?: string;
  color?: string;
}

interface SlackAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}

/** Slack's escapes for &, < and > (its message formatting). */
const escapeText = (s: string) => String(s ?? '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The first line, escaped. */
const firstLine = (s: string) => escapeText(String(s ?? '').split('\n')[0]);

const slackLink: LinkFormatter = (url, text) => `<${url}|${escapeText(text)}>`;

const attachment = (color: string, title: string, titleLink: string, text: string): SlackAttachment =>
  ({ fallback: '', color, title, title_link: titleLink, text });

function slackConvertor(meta: SlackMeta): ChatConvertor<object> {
  // Go's nil slice of attachments is sent as null.
  const message = (text: string, attachments: SlackAttachment[] | null = null) => ({
    channel: meta.channel ?? '', text, username: meta.username ?? '', icon_url: meta.icon_url ?? '',
    unfurl_links: 0, link_names: 0, attachments,
  });
  const repoLink = (repo: Payload) => slackLink(repo?.html_url, repo?.full_name);
  const senderLink = (p: Payload) => slackLink(p.sender?.html_url ?? '', p.sender?.login ?? '');
  return {
    create: (p) => message(`[${repoLink(p.repository)}:${slackLink(refUrl(p.repository?.html_url, p.ref, p.ref_type), shortRefName(p.ref))}] ${p.ref_type} created by ${p.sender?.login}`),
    delete: (p) => message(`[${repoLink(p.repository)}:${shortRefName(p.ref)}] ${p.ref_type} deleted by ${p.sender?.login}`),
    fork: (p) => message(`${repoLink(p.forkee)} is forked to ${repoLink(p.repository)}`),
    push(p) {
      const repo = p.repository ?? {};
      const count = commitCount(Number(p.total_commits ?? 0));
      const commits = p.compare_url ? slackLink(p.compare_url, count) : count;
      const text = `[${repoLink(repo)}:${slackLink(refUrl(repo.html_url, p.ref), shortRefName(p.ref))}] ${commits} pushed by ${p.pusher?.login}`;
      const lines = (p.commits ?? []).map((c: Payload) =>
        `${slackLink(c.url, String(c.id).slice(0, 7))}: ${firstLine(c.message)} - ${escapeText(c.author?.name)}`);
      return message(text, [attachment(meta.color ?? '', repo.html_url, repo.html_url, lines.join('\n'))]);
    },
    issue(p) {
      const info = issueInfo(p, slackLink, true);
      return message(info.text, info.extra ? [attachment(hexColor(info.color), escapeText(info.title), p.issue?.html_url, escapeText(info.extra))] : null);
    },
    issueComment(p) {
      const info = commentInfo(p, slackLink, true);
      return message(info.text, [attachment(hexColor(info.color), info.title, p.comment?.html_url, escapeText(p.comment?.body))]);
    },
    pullRequest(p) {
      const info = pullInfo(p, slackLink, true);
      // Gitea shows the pull's body here even when the line's extra was a review's.
      return message(info.text, info.extra ? [attachment(hexColor(info.color), escapeText(info.title), p.pull_request?.html_url, escapeText(p.pull_request?.body))] : null);
    },
    review(p, event) {
      const repo = p.repository ?? {};
      const title = `#${p.number} ${p.pull_request?.title}`;
      // The pull's link in Markdown, inside Slack's text: as Gitea sends it.
      return message(`[${repoLink(repo)}] Pull request review ${REVIEW_VERDICTS[event][0]}: [${title}](${repo.html_url}/pulls/${p.number}) by ${senderLink(p)}`);
    },
    repository(p) {
      const verb = p.action === 'created' ? 'created' : p.action === 'deleted' ? 'deleted' : '';
      return message(verb ? `[${repoLink(p.repository)}] Repository ${verb} by ${senderLink(p)}` : '');
    },
    status: (p) => message(statusInfo(p, noLink, true).text),
  };
}

export const slackMessage = (meta: SlackMeta, event: HookEvent, payload: Payload) => convert(slackConvertor(meta), event, payload);
