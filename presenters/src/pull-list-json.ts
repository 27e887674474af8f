// A page of pulls as one JSON text. Each pull shows its repository twice (base.repo and
// head.repo, Gitea's full repository JSON): 100 copies of the same object in a page of 50.
// Serializing it once and splicing the text in where each copy goes costs a page one
// repository's serialization instead of a hundred (what JSON.stringify spent most of a
// page's time on). The output is byte for byte what JSON.stringify of the whole page gives.
import { randomBytes } from 'node:crypto';
import type { collaboration } from '@anvil/proto';
import { pullContext, presentPull, type PullContext } from './pull.js';

// A placeholder no value can hold where the shared one goes: inside a JSON string every `"`
// is escaped, so the text `"<key>":"<marker>"` only ever appears as a member this code wrote.
const MARKER = `anvil-shared-${randomBytes(12).toString('hex')}`;

/**
 * JSON.stringify(build(value)) where `build` puts `value` under member `key` many times:
 * `value` is serialized once. `build` gets the placeholder to put there instead.
 */
export function jsonWithShared<T>(key: string, value: unknown, build: (placeholder: T) => unknown): string {
  const text = JSON.stringify(build(MARKER as unknown as T));
  return text.split(`${JSON.stringify(key)}:${JSON.stringify(MARKER)}`).join(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
}

/** The JSON text of `pulls` of one repository, as JSON.stringify(pulls.map(presentPull)) would give it. */
export function pullListJson(pulls: collaboration.PullRequest[], ctx: Omit<PullContext, 'repoJson'>): string {
  const context = pullContext(ctx);
  if (!context.repoJson) return JSON.stringify(pulls.map((p) => presentPull(p, context)));
  return jsonWithShared<PullContext['repoJson']>('repo', context.repoJson, (repoJson) => pulls.map((p) => presentPull(p, { ...context, repoJson })));
}
