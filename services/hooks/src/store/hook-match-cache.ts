// Which active hooks an event in a repository fires, remembered per (repository, owner,
// event) so that a stream of pushes to one repository costs no hooks query each. Every hook
// change raises `webhook_changed` (after its write), which every replica's listener turns
// into clear(); the short TTL bounds what a lost notification could leave behind. A lookup
// that started before a clear() does not fill the cache, so a stale answer is never kept.
import type { HookEvent } from '../domain/hook-events.js';
import type { Webhook } from '../domain/webhooks.js';

export const WEBHOOK_CHANNEL = 'webhook_changed';

export class HookMatchCache {
  private entries = new Map<string, { hooks: Webhook[]; expires: number }>();
  private generation = 0;

  constructor(private readonly ttlMs = 5_000, private readonly maxEntries = 10_000) {}

  async get(repo: { id: number; ownerId: number }, event: HookEvent, load: () => Promise<Webhook[]>): Promise<Webhook[]> {
    const key = `${repo.id}:${repo.ownerId}:${event}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.hooks;
    const generation = this.generation;
    const hooks = await load();
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { hooks, expires: Date.now() + this.ttlMs });
    }
    return hooks;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
