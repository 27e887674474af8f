// The events a change to an issue publishes, derived from the issue before and after it.
import type { Label } from './issue-store.js';

/** The label event of a change to an issue's labels, as Gitea's issue_label webhook. */
export function labelEvents(before: { labels: Label[] }, after: { labels: Label[] }) {
  const added = after.labels.filter((l) => !before.labels.some((b) => b.id === l.id));
  const removed = before.labels.filter((l) => !after.labels.some((a) => a.id === l.id));
  if (!added.length && !removed.length) return [];
  if (!after.labels.length) return [{ action: 'label_cleared' as const, removedLabels: removed }];
  return [{ action: 'label_updated' as const, addedLabels: added, removedLabels: removed }];
}

