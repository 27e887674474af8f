// Writers of one repository take turns; a writer whose caller gave up before its turn
// (the gateway's deadline passed and it answered with an error) does nothing, so no write
// lands that its client was told had failed, and the writers behind it still run.
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { RepositoryWriteLock } from '../src/domain/write-lock.js';
import { readOncePerTurn, settleRefs } from '../src/domain/write-turn.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the repository write lock', () => {
  it('runs writers of one repository one at a time, in arrival order, and of others at once', async () => {
    const lock = new RepositoryWriteLock();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.run('ada', 'Site', async () => {
      log.push('first starts');
      await new Promise<void>((r) => (releaseFirst = r));
      log.push('first ends');
    });
    const second = lock.run('ADA', 'site', async () => void log.push('second'));
    const other = lock.run('ada', 'other', async () => void log.push('other repository'));
    await other;
    await tick();
    expect(log).toEqual(['first starts', 'other repository']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(log).toEqual(['first starts', 'other repository', 'first ends', 'second']);
  });

  it('skips a writer whose caller stopped waiting before its turn, and runs the ones behind it', async () => {
    const lock = new RepositoryWriteLock();
    const ran: string[] = [];
    let releaseFirst!: () => void;
    const first = lock.run('ada', 'site', () => new Promise<void>((r) => (releaseFirst = () => { ran.push('first'); r(); })));
    const gaveUp = new AbortController();
    const abandoned = lock.run('ada', 'site', async () => void ran.push('abandoned'), gaveUp.signal);
    const third = lock.run('ada', 'site', async () => void ran.push('third'), new AbortController().signal);
    gaveUp.abort();
    await tick();
    releaseFirst();
    await first;
    const err = await abandoned.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unavailable');
    await third;
    expect(ran).toEqual(['first', 'third']);
  });

  it('writes the refs table before a writer publishes its move, and not again at the turn end', async () => {
    const log: string[] = [];
    const lock = new RepositoryWriteLock({ afterTurn: async (owner, name) => void log.push(`refs of ${owner}/${name} written`) });
    await lock.run('ada', 'site', async () => {
      log.push('branch moved');
      await settleRefs();
      log.push('push event committed');
    });
    await lock.run('ada', 'site', async () => void log.push('tag created, nothing published'));
    expect(log).toEqual([
      'branch moved', 'refs of ada/site written', 'push event committed',
      'tag created, nothing published', 'refs of ada/site written',
    ]);
    await settleRefs(); // outside any turn: nothing to write
    expect(log).toHaveLength(5);
  });

  it('reads a row a turn asks for twice (its committer, then its events\' sender) once, and again in the next turn', async () => {
    const lock = new RepositoryWriteLock();
    let reads = 0;
    const owner = () => readOncePerTurn('owner:1', async () => ({ id: 1, read: ++reads }));
    const turn = () => lock.run('ada', 'site', async () => [await owner(), await owner()]);
    const [committer, sender] = await turn();
    expect(sender).toBe(committer);
    expect(reads).toBe(1);
    await turn();
    expect(reads).toBe(2);
    // Outside a turn nothing is kept.
    await owner();
    await owner();
    expect(reads).toBe(4);
  });

  it('reads again in the same turn after a read that failed', async () => {
    const lock = new RepositoryWriteLock();
    let attempts = 0;
    const flaky = () => readOncePerTurn('owner:2', async () => {
      if (++attempts === 1) throw new Error('connection reset');
      return attempts;
    });
    const read = await lock.run('ada', 'site', async () => {
      await expect(flaky()).rejects.toThrow('connection reset');
      return flaky();
    });
    expect(read).toBe(2);
  });
});
