// The events a webhook can choose (Gitea's modules/webhook/type.go HookEventType), each with
// the coarse name Gitea sends in X-Gitea-Event (HookEventType.Event()). A hook stores the
// granular names; the coarse choices clients made before the split (`issues`,
// `pull_request`) expand to every sub-event, so old clients keep getting what they chose.
import { invalid } from '@anvil/kit';

/** Granular event name → coarse name (X-Gitea-Event / X-GitHub-Event). Order is the API's. */
export const HOOK_EVENTS = {
  create: 'create',
  delete: 'delete',
  fork: 'fork',
  push: 'push',
  issues: 'issues',
  issue_assign: 'issues',
  issue_label: 'issues',
  issue_milestone: 'issues',
  issue_comment: 'issue_comment',
  pull_request: 'pull_request',
  pull_request_assign: 'pull_request',
  pull_request_label: 'pull_request',
  pull_request_milestone: 'pull_request',
  pull_request_comment: 'issue_comment',
  pull_request_review_approved: 'pull_request_approved',
  pull_request_review_rejected: 'pull_request_rejected',
  pull_request_review_comment: 'pull_request_comment',
  pull_request_sync: 'pull_request',
  pull_request_review_request: 'pull_request',
  wiki: 'wiki',
  repository: 'repository',
  release: 'release',
  package: 'package',
  status: 'status',
  workflow_run: 'workflow_run',
  workflow_job: 'workflow_job',
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;

const ALL = Object.keys(HOOK_EVENTS) as HookEvent[];
const ISSUE_EVENTS: HookEvent[] = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_EVENTS: HookEvent[] = [
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment',
  'pull_request_sync', 'pull_request_review_request',
];

/**
 * Names that select several events (Gitea's issuesHook/pullHook): the coarse `issues` and
 * `pull_request` select every sub-event; `issues_only` and `pull_request_only` the event
 * alone; `pull_request_review` the three review outcomes; `send_everything` all of them.
 */
const ALIASES: Record<string, HookEvent[]> = {
  issues: ISSUE_EVENTS,
  pull_request: PULL_EVENTS,
  issues_only: ['issues'],
  pull_request_only: ['pull_request'],
  pull_request_review: ['pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment'],
  send_everything: ALL,
};

/** What a hook created or edited with no events gets (Gitea's default). */
export const DEFAULT_EVENTS: HookEvent[] = ['push'];

export const isHookEvent = (name: string): name is HookEvent => Object.hasOwn(HOOK_EVENTS, name);

/** The granular set a request's `events` choose, in the API's order; unknown names are a 422. */
export function chosenEvents(requested: readonly string[]): HookEvent[] {
  if (requested.length === 0) return [...DEFAULT_EVENTS];
  const chosen = new Set<HookEvent>();
  for (const raw of requested) {
    const name = raw.trim().toLowerCase();
    const selected = ALIASES[name] ?? (isHookEvent(name) ? [name] : undefined);
    if (!selected) throw invalid(`unknown webhook event: ${raw}`, 'unknown_hook_event');
    for (const event of selected) chosen.add(event);
  }
  return ALL.filter((event) => chosen.has(event));
}

/** X-Gitea-Event: the coarse name of a granular event. */
export const coarseEvent = (event: HookEvent): string => HOOK_EVENTS[event];
