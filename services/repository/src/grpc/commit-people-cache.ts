// Who owns the e-mail addresses of commits (identity's GetUsersByEmails), remembered per
// process: a commit page names the same few people again and again, and asking identity per
// page cost more CPU than the rest of the read (a gRPC call, identity's SQL). Keyed by the
// lower-cased address, with "nobody" remembered too. An entry never outlives the first of:
// - any identity user event (created, updated, deleted — identity publishes `updated` when a
//   user's addresses change too), heard by every replica on a plain subscription
//   (main.ts), which empties the whole cache: user events are rare next to commit reads;
// - its TTL (10 s by default): the bound for an event this process missed (it reconnected
//   to NATS, or the event is still in identity's outbox).
// Concurrent misses for one address share one lookup, and a lookup that began before an
// event does not fill the cache after it.
import type { CommitPeople, IdentityUser } from '../domain/commits.js';

interface Entry {
  user: IdentityUser | undefined;
  expires: number;
}

export class CommitPeopleCache implements CommitPeople {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<IdentityUser | undefined>>();
  /** Bumped by dropAll(): lookups started before it do not fill the cache. */
  private generation = 0;

  constructor(private readonly source: CommitPeople, private readonly ttlMs = 10_000, private readonly maxEntries = 10_000) {}

  async usersByEmails(emails: readonly string[]): Promise<Map<string, IdentityUser>> {
    const now = Date.now();
    const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
    const answers = new Map<string, Promise<IdentityUser | undefined> | IdentityUser | undefined>();
    const missing: string[] = [];
    for (const email of wanted) {
      const hit = this.ttlMs > 0 ? this.entries.get(email) : undefined;
      if (hit && hit.expires > now) answers.set(email, hit.user);
      else if (this.inFlight.has(email)) answers.set(email, this.inFlight.get(email));
      else missing.push(email);
    }
    if (missing.length) {
      const generation = this.generation;
      const lookup = this.source.usersByEmails(missing);
      const ours = new Map<string, Promise<IdentityUser | undefined>>();
      for (const email of missing) {
        const one = lookup.then((found) => found.get(email));
        // A failed lookup is the caller's error; the cache remembers nothing of it.
        one.catch(() => undefined);
        ours.set(email, one);
        this.inFlight.set(email, one);
        answers.set(email, one);
      }
      const settle = (found?: Map<string, IdentityUser>) => {
        for (const [email, one] of ours) {
          if (this.inFlight.get(email) === one) this.inFlight.delete(email);
          if (found && generation === this.generation && this.ttlMs > 0) this.put(email, found.get(email));
        }
      };
      lookup.then(settle, () => settle());
    }
    const result = new Map<string, IdentityUser>();
    for (const [email, answer] of answers) {
      const user = await answer;
      if (user) result.set(email, user);
    }
    return result;
  }

  /** Forgets everything: an identity user changed (or this process may have missed that one did). */
  dropAll(): void {
    this.generation++;
    this.entries.clear();
    this.inFlight.clear();
  }

  private put(email: string, user: IdentityUser | undefined): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(email, { user, expires: Date.now() + this.ttlMs });
  }
}
