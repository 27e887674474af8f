// Repository topics with Gitea's rules (models/repo/topic.go and routers/api/v1/repo/topic.go):
// lower case, trimmed, `^[a-z0-9][-.a-z0-9]*$`, at most 35 characters and 25 per repository.
// Anyone who can see a repository reads its topics; its admins change them.
import { invalid, notFound } from '@anvil/kit';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';

export const MAX_TOPICS_PER_REPOSITORY = 25;
const MAX_TOPIC_LENGTH = 35;
const TOPIC_PATTERN = /^[a-z0-9][-.a-z0-9]*$/;

export interface Topic {
  id: number;
  name: string;
  repo_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface TopicStore {
  /**
   * Sets a repository's topics to `change(current)` in one transaction that holds the
   * repository's row, so concurrent edits never lose one another; names new to the site
   * get a topic row. `change` may throw to refuse.
   */
  changeTopics(repositoryId: number, change: (current: readonly string[]) => string[]): Promise<void>;
  /** Topics whose name contains `keyword` and that some repository has, most used first. */
  searchTopics(keyword: string, offset: number, limit: number): Promise<{ items: Topic[]; total: number }>;
}

export interface TopicDeps {
  store: RepositoryStore;
  topics: TopicStore;
}

/** A topic as Gitea normalises one: trimmed and lower case. */
export const normaliseTopic = (name: string): string => name.trim().toLowerCase();

export function isValidTopic(name: string): boolean {
  return name.length <= MAX_TOPIC_LENGTH && TOPIC_PATTERN.test(name);
}

/** Gitea's SanitizeAndValidateTopics: normalised, blanks and repeats dropped, the invalid set apart. */
export function sanitizeTopics(names: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const refused = new Set<string>();
  for (const raw of names) {
    const name = normaliseTopic(raw);
    if (!name) continue;
    (isValidTopic(name) ? valid : refused).add(name);
  }
  return { valid: [...valid].sort(), invalid: [...refused] };
}

/** The names an edit refused (Gitea's 422 lists them); empty when it was applied. */
export type TopicEditResult = { invalidTopics: string[] };

const tooMany = () => invalid('Exceeding maximum number of topics per repo', 'too_many_topics');

export function listTopics(access: RepositoryAccess, offset: number, limit: number): { topics: string[]; total: number } {
  const { repository } = access;
  return { topics: repository.topics.slice(offset, offset + limit), total: repository.topics.length };
}

export async function replaceTopics(deps: TopicDeps, access: RepositoryAccess, names: readonly string[]): Promise<TopicEditResult> {
  const { valid, invalid: refused } = sanitizeTopics(names);
  if (valid.length > MAX_TOPICS_PER_REPOSITORY) throw tooMany();
  if (refused.length) return { invalidTopics: refused };
  await deps.topics.changeTopics(access.repository.id, () => valid);
  return { invalidTopics: [] };
}

export async function addTopic(deps: TopicDeps, access: RepositoryAccess, topic: string): Promise<TopicEditResult> {
  const wanted = normaliseTopic(topic);
  if (!isValidTopic(wanted)) return { invalidTopics: [wanted] };
  await deps.topics.changeTopics(access.repository.id, (current) => {
    if (current.includes(wanted)) return [...current];
    if (current.length >= MAX_TOPICS_PER_REPOSITORY) throw invalid('Exceeding maximum allowed topics per repo.', 'too_many_topics');
    return [...current, wanted].sort();
  });
  return { invalidTopics: [] };
}

export async function deleteTopic(deps: TopicDeps, access: RepositoryAccess, topic: string): Promise<TopicEditResult> {
  const unwanted = normaliseTopic(topic);
  if (!isValidTopic(unwanted)) return { invalidTopics: [unwanted] };
  await deps.topics.changeTopics(access.repository.id, (current) => {
    if (!current.includes(unwanted)) throw notFound('The target couldn\'t be found.', 'topic_not_found');
    return current.filter((t) => t !== unwanted);
  });
  return { invalidTopics: [] };
}

export async function searchTopics(deps: TopicDeps, keyword: string, offset: number, limit: number): Promise<{ items: Topic[]; total: number }> {
  return deps.topics.searchTopics(normaliseTopic(keyword), offset, limit);
}
