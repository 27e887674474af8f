// The push consumer handles a merge's own push once the merge is recorded: it waits for the
// repository's merges on their way when the push came, and for no others.
import { describe, expect, it } from '@jest/globals';
import { MergesInFlight } from '../src/domain/merges-in-flight.js';

/** A merge the test ends by hand. */
function pendingMerge() {
  let end!: (value: string) => void;
  let fail!: (err: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  return { run: () => done, end, fail };
}

/** Whether `promise` has settled once everything already queued has run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe('a push raised by a merge of this process', () => {
  it('is handled once the merge has been recorded, and the merge answers as before', async () => {
    const merges = new MergesInFlight();
    const merge = pendingMerge();
    const answered = merges.during(7, merge.run);
    const waited = merges.ended(7);
    expect(await settledYet(waited)).toBe(false);
    merge.end('merged');
    await expect(answered).resolves.toBe('merged');
    expect(await settledYet(waited)).toBe(true);
  });

  it('is handled once a merge that failed has given up, and the failure reaches the merger', async () => {
    const merges = new MergesInFlight();
    const merge = pendingMerge();
    const answered = merges.during(7, merge.run);
    const waited = merges.ended(7);
    merge.fail(new Error('push out of date'));
    await expect(answered).rejects.toThrow('push out of date');
    expect(await settledYet(waited)).toBe(true);
  });

  it('does not wait for merges of other repositories', async () => {
    const merges = new MergesInFlight();
    const other = pendingMerge();
    void merges.during(8, other.run);
    expect(await settledYet(merges.ended(7))).toBe(true);
    other.end('merged');
  });

  it('does not wait for merges that started after it came', async () => {
    const merges = new MergesInFlight();
    const first = pendingMerge();
    const later = pendingMerge();
    void merges.during(7, first.run);
    const waited = merges.ended(7);
    void merges.during(7, later.run);
    first.end('merged');
    expect(await settledYet(waited)).toBe(true);
    later.end('merged');
  });

  it('stops waiting for a merge that hangs after the bound', async () => {
    const merges = new MergesInFlight();
    const hanging = pendingMerge();
    void merges.during(7, hanging.run);
    const waited = merges.ended(7, 20);
    expect(await settledYet(waited)).toBe(false);
    await expect(waited).resolves.toBeUndefined();
    hanging.end('merged');
  });
});
