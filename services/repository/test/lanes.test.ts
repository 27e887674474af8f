// Writes keep their own budget: reads share a bounded number of git process slots and wait
// for one, a writer never waits behind them.
import { describe, expect, it } from '@jest/globals';
import { MAX_READ_PROCESSES, processSlot, runAsWriter } from '../src/git/lanes.js';

describe('git process slots', () => {
  it('lets a writer start git while a burst of reads waits for slots', async () => {
    const held = await Promise.all(Array.from({ length: MAX_READ_PROCESSES }, () => processSlot()));
    let readStarted = false;
    const waitingRead = processSlot().then((release) => {
      readStarted = true;
      return release;
    });
    const writerRelease = await runAsWriter('ada/notes', () => processSlot());
    expect(readStarted).toBe(false);
    writerRelease();
    await Promise.resolve();
    expect(readStarted).toBe(false);
    held[0]();
    const release = await waitingRead;
    expect(readStarted).toBe(true);
    release();
    for (const r of held.slice(1)) r();
    // Every slot is free again: as many reads as the bound start at once.
    const again = await Promise.all(Array.from({ length: MAX_READ_PROCESSES }, () => processSlot()));
    for (const r of again) r();
  });
});
