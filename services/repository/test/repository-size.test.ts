// A repository's size is re-measured after API writes without holding up the answer; a
// burst of writes costs one measurement more, not one each.
import { describe, expect, it } from '@jest/globals';
import { RepositorySizes } from '../src/domain/repository-size.js';
import type { RepositoryStore } from '../src/domain/store.js';

function recordingStore() {
  const saved: Array<{ id: number; size: number | undefined }> = [];
  const store = {
    transaction: async (work: (tx: unknown) => Promise<unknown>) => work({ update: async (id: number, patch: { size?: number }) => { saved.push({ id, size: patch.size }); } }),
  } as unknown as RepositoryStore;
  return { store, saved };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('repository sizes after writes', () => {
  it('saves what the measurement found', async () => {
    const { store, saved } = recordingStore();
    const sizes = new RepositorySizes(store, () => {});
    sizes.refresh(7, async () => 4096);
    for (let i = 0; i < 5; i += 1) await settled();
    expect(saved).toEqual([{ id: 7, size: 4096 }]);
  });

  it('folds writes that land during a measurement into one more measurement', async () => {
    const { store, saved } = recordingStore();
    const sizes = new RepositorySizes(store, () => {});
    let release!: () => void;
    let measured = 0;
    const measure = () => {
      measured += 1;
      return measured === 1 ? new Promise<number>((r) => (release = () => r(100))) : Promise.resolve(300);
    };
    sizes.refresh(7, measure);
    sizes.refresh(7, measure);
    sizes.refresh(7, measure);
    release();
    for (let i = 0; i < 10; i += 1) await settled();
    expect(measured).toBe(2);
    expect(saved.map((s) => s.size)).toEqual([100, 300]);
  });

  it('reports a failed measurement and measures again on the next write', async () => {
    const { store, saved } = recordingStore();
    const errors: unknown[] = [];
    const sizes = new RepositorySizes(store, (err) => errors.push(err));
    sizes.refresh(7, async () => { throw new Error('gone'); });
    for (let i = 0; i < 5; i += 1) await settled();
    expect(errors).toHaveLength(1);
    sizes.refresh(7, async () => 10);
    for (let i = 0; i < 5; i += 1) await settled();
    expect(saved).toEqual([{ id: 7, size: 10 }]);
  });
});
