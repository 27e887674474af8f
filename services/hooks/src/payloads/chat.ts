// Chat webhook shapes (Gitea's services/webhook/slack.go, discord.go, msteams.go): a title
// line in Gitea's words (general.go's getIssuesPayloadInfo and friends: "[owner/repo] Issue
// opened: #1 title by ada"), the body where Gitea shows it (opened/edited issues and pulls,
// comments, reviews), a link, and a colour per kind of change.
import type { HookEvent } from '../domain/hook-events.js';
import { collaborationSummary } from './chat-collaboration.js';

export interface Summary {
  title: string;
  text: string;
  url: string;
  /** 0xRRGGBB; Gitea's palette (general.go) by kind of change. */
  color?: number;
}

type Payload = Record<string, any>;

export function summarize(event: HookEvent, payload: Payload): Summary {
  const repo = payload.repository ?? {};
  const who = payload.sender?.login || payload.pusher?.login || '';
  const repoLink = repo.html_url ?? '';
  switch (event) {
    case 'push': {
      const branch = String(payload.ref ?? '').replace(/^refs\/(heads|tags)\//, '');
      const count = Number(payload.total_commits ?? 0);
      const lines = (payload.commits ?? []).map((c: Payload) => `${String(c.id).slice(0, 10)}: ${String(c.message).split('\n')[0]}`);
      return {
        title: `[${repo.full_name}:${branch}] ${count} new commit${count === 1 ? '' : 's'}`,
        text: [`pushed by ${who}`, ...lines].join('\n'), url: payload.compare_url || `${repoLink}/src/branch/${branch}`,
      };
    }
    case 'create':
    case 'delete':
      return { title: `[${repo.full_name}] ${payload.ref_type} ${payload.ref} ${event === 'create' ? 'created' : 'deleted'}`, text: `by ${who}`, url: repoLink };
    case 'repository':
      return { title: `[${repo.full_name}] repository ${payload.action}`, text: `by ${who}`, url: repoLink };
    case 'fork':
      // Gitea: "<parent> is forked to <fork>".
      return { title: `${payload.forkee?.full_name} is forked to ${repo.full_name}`, text: `by ${who}`, url: repoLink };
    case 'status':
      return { title: `[${repo.full_name}] ${payload.context}: ${payload.state}`, text: payload.description ?? '', url: payload.target_url || repoLink };
    default:
      return collaborationSummary(payload) ?? { title: `[${repo.full_name}] ${event}`, text: who ? `by ${who}` : '', url: repoLink };
  }
}

export function slackBody(summary: Summary, meta: Record<string, string>) {
  return {
    channel: meta.channel ?? '', username: meta.username ?? '', icon_url: meta.icon_url ?? '',
    text: `<${summary.url}|${summary.title}>`,
    attachments: summary.text ? [{ color: meta.color || hex(summary.color), title: summary.title, title_link: summary.url, text: summary.text }] : [],
  };
}

export function discordBody(summary: Summary) {
  return { embeds: [{ title: summary.title, description: summary.text, url: summary.url, color: summary.color ?? 0 }] };
}

export function msteamsBody(summary: Summary) {
  return {
    '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: summary.title, title: summary.title,
    themeColor: hex(summary.color),
    sections: [{ text: summary.text }],
    potentialAction: [{ '@type': 'OpenUri', name: 'View in browser', targets: [{ os: 'default', uri: summary.url }] }],
  };
}

const hex = (color: number | undefined) => (color === undefined ? '' : color.toString(16).padStart(6, '0'));
