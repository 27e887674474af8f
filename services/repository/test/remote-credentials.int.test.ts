// A remote's credentials at rest (pull mirror sources, push mirror targets), with real git:
// the repository's config keeps the address and the credentials sealed, never in clear;
// they open only under the key that sealed them, and go with the remote when it is removed.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseRemoteAddress } from '../src/domain/remote-address.js';
import { credentialSeal } from '../src/git/credential-seal.js';
import { cloneBare, readRemote, removeRemote, writeRemote } from '../src/git/mirror-git.js';

const seal = credentialSeal('a-test-internal-token-of-at-least-32-chars');
const noLocal = { importLocalPaths: false, allowedLocalRoot: '' };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;
let dir: string;
let gitDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-remote-creds-'));
  gitDir = join(dir, 'r.git');
  execFileSync('git', ['init', '--bare', '--quiet', gitDir]);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sealed remote credentials', () => {
  it('opens what it sealed, and nothing sealed under another key or altered', () => {
    const sealed = seal.seal({ username: 'alice', password: 'hunter2' });
    expect(sealed).not.toContain('hunter2');
    expect(seal.open(sealed)).toEqual({ username: 'alice', password: 'hunter2' });
    expect(credentialSeal('another-internal-token-of-32-chars-or-more').open(sealed)).toBeUndefined();
    expect(seal.open(`${sealed.slice(0, -2)}AA`)).toBeUndefined();
  });

  it('keeps a remote in the repository config without its password in clear, and reads it back whole', async () => {
    const address = parseRemoteAddress('https://example.com/a/b.git', { username: 'mirror-bot', password: 'p@ss:w0rd/secret' }, { isAdmin: false }, noLocal);
    await writeRemote(gitDir, 'origin', address, seal, { mirror: true });
    const config = await readFile(join(gitDir, 'config'), 'utf8');
    expect(config).toContain('url = https://example.com/a/b.git');
    expect(config).not.toContain('p@ss');
    expect(config).not.toContain(encodeURIComponent('p@ss:w0rd/secret'));
    const read = await readRemote(gitDir, 'origin', seal);
    expect(read).toMatchObject({ kind: 'url', safeUrl: 'https://example.com/a/b.git', credentials: { username: 'mirror-bot', password: 'p@ss:w0rd/secret' } });
  });

  it('still reads a remote written with its credentials in the URL', async () => {
    execFileSync('git', ['--git-dir', gitDir, 'config', 'remote.remote_mirror_ab12.url', 'https://old:legacy-pw@example.com/c.git']);
    expect(await readRemote(gitDir, 'remote_mirror_ab12', seal)).toMatchObject({ safeUrl: 'https://example.com/c.git', credentials: { username: 'old', password: 'legacy-pw' } });
  });

  it('removes the sealed credentials with the remote', async () => {
    await removeRemote(gitDir, 'origin');
    const config = await readFile(join(gitDir, 'config'), 'utf8');
    expect(config).not.toContain('origin');
    expect(config).not.toContain('sealedcredentials');
  });

  it('keeps the config readable when a mirror\'s remote follows a clone whose origin was dropped', async () => {
    const source = join(dir, 'source.git');
    execFileSync('git', ['init', '--bare', '--quiet', source]);
    const target = join(dir, 'cloned.git');
    const address = parseRemoteAddress(source, {}, { isAdmin: true }, { importLocalPaths: true, allowedLocalRoot: dir });
    await cloneBare(target, address, { address: '' }, { stallTimeoutMs: 60_000, log: silent, label: 'test' });
    expect(await readFile(join(target, 'config'), 'utf8')).not.toContain('[remote "origin"]');
    await writeRemote(target, 'origin', parseRemoteAddress('https://example.com/up.git', { username: 'u', password: 'pw-123' }, { isAdmin: false }, noLocal), seal, { mirror: true });
    expect(execFileSync('git', ['--git-dir', target, 'config', '--get', 'remote.origin.url']).toString().trim()).toBe('https://example.com/up.git');
    expect(execFileSync('git', ['--git-dir', target, 'config', '--get', 'core.bare']).toString().trim()).toBe('true');
  });

  it('refuses a remote name this service did not make', async () => {
    const address = parseRemoteAddress('https://example.com/x.git', {}, { isAdmin: false }, noLocal);
    await expect(writeRemote(gitDir, 'evil"]\n[core', address, seal)).rejects.toThrow(/not a remote name/);
  });
});
