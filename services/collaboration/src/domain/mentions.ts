// @mentions in an issue's text (Gitea's references.FindAllMentionsMarkdown, simplified):
// `@login` not preceded by a word character or another mention character, outside code.
const MENTION = /(?:^|[^\w@`])@([0-9A-Za-z](?:[0-9A-Za-z._-]*[0-9A-Za-z])?)/g;
const FENCED = /```[\s\S]*?```|`[^`\n]*`/g;

/** The distinct logins mentioned, lower-cased. */
export function mentionedLogins(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.replace(FENCED, ' ').matchAll(MENTION)) found.add(match[1].toLowerCase());
  return [...found];
}
