// Git process slots: one caller cannot hold more than its share, a caller at its limit
// never keeps the others waiting behind it, and a writer never waits behind reads.
import { describe, expect, it } from '@jest/globals';
import { runAsWriter } from '../src/domain/write-turn.js';
import { ProcessSlots } from '../src/git/process-slots.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('git process slots', () => {
  it('run at most perCaller processes of one caller, the rest in order as slots free', async () => {
    const slots = new ProcessSlots({ perCaller: 2, total: 10 });
    const started: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) => slots.run('user:1', async () => {
      started.push(i);
      await g.opened;
      return i;
    }));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g) => g.open());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
  });

  it('let another caller run while one caller waits at its limit', async () => {
    const slots = new ProcessSlots({ perCaller: 1, total: 10 });
    const busy = gate();
    const first = slots.run('user:1', () => busy.opened);
    const queued = slots.run('user:1', async () => 'second of user 1');
    expect(await slots.run('user:2', async () => 'user 2')).toBe('user 2');
    busy.open();
    await first;
    expect(await queued).toBe('second of user 1');
  });

  it('hold every caller to the total, and release a slot when the work fails', async () => {
    const slots = new ProcessSlots({ perCaller: 5, total: 1 });
    await expect(slots.run('user:1', async () => { throw new Error('git failed'); })).rejects.toThrow('git failed');
    const busy = gate();
    let second = false;
    const first = slots.run('user:1', () => busy.opened);
    const other = slots.run('user:2', async () => { second = true; });
    await new Promise((r) => setImmediate(r));
    expect(second).toBe(false);
    busy.open();
    await Promise.all([first, other]);
    expect(second).toBe(true);
  });

  it('lets a writer start git while a burst of reads waits for slots', async () => {
    const slots = new ProcessSlots({ perCaller: 2, total: 2 });
    const busy = gate();
    const held = [slots.run('user:1', () => busy.opened), slots.run('user:2', () => busy.opened)];
    let readStarted = false;
    const waitingRead = slots.run('user:3', async () => { readStarted = true; });
    expect(await runAsWriter('ada/notes', () => slots.run('user:4', async () => 'written'))).toBe('written');
    expect(readStarted).toBe(false);
    busy.open();
    await Promise.all([...held, waitingRead]);
    expect(readStarted).toBe(true);
  });
});
