// The generated internal token is created once, private, and reused.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateInternalToken, readInternalToken } from '../src/internal-token.js';

describe('internal token', () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is generated once with mode 0600 and read back on the next start', async () => {
    dir = await mkdtemp(join(tmpdir(), 'anvil-token-'));
    const dataDir = join(dir, 'data'); // does not exist yet
    expect(readInternalToken(dataDir)).toBeUndefined();
    const token = await loadOrCreateInternalToken(dataDir);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await stat(join(dataDir, 'internal_token'))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateInternalToken(dataDir)).toBe(token);
    expect(readInternalToken(dataDir)).toBe(token);
  });
});
