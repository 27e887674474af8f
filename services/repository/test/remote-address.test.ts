import { describe, expect, it } from '@jest/globals';
import { formatGoDuration, parseGoDuration, parseRemoteAddress, scrubSecrets } from '../src/domain/remote-address.js';

const user = { isAdmin: false };
const admin = { isAdmin: true };
const noLocal = { importLocalPaths: false, allowedLocalRoot: '' };
const localRoot = { importLocalPaths: true, allowedLocalRoot: '/srv/imports' };

describe('the clone address of a migration', () => {
  it('keeps credentials out of the address it stores and shows', () => {
    const address = parseRemoteAddress('https://alice:hunter2@example.com/a/b.git', {}, user, noLocal);
    expect(address).toMatchObject({ kind: 'url', protocol: 'https', host: 'example.com', port: 443, safeUrl: 'https://example.com/a/b.git', credentials: { username: 'alice', password: 'hunter2' } });
    expect(address.secrets).toContain('hunter2');
  });

  it('prefers the request\'s auth fields, and sends a token as the password', () => {
    expect(parseRemoteAddress('https://x:y@example.com/r.git', { username: 'bob', password: 'pw' }, user, noLocal)).toMatchObject({ credentials: { username: 'bob', password: 'pw' } });
    expect(parseRemoteAddress('https://example.com/r.git', { token: 'tok123' }, user, noLocal)).toMatchObject({ credentials: { username: 'oauth2', password: 'tok123' } });
  });

  it('knows each protocol\'s default port', () => {
    expect(parseRemoteAddress('http://h/r', {}, user, noLocal)).toMatchObject({ port: 80 });
    expect(parseRemoteAddress('git://h/r', {}, user, noLocal)).toMatchObject({ port: 9418 });
    expect(parseRemoteAddress('http://[::1]:8080/r', {}, user, noLocal)).toMatchObject({ host: '::1', port: 8080 });
  });

  it.each(['ssh://git@h/r.git', 'file:///etc/passwd', 'ext::sh -c id', 'git@github.com:a/b.git', '', '-uhttp://x'])('refuses %j', (addr) => {
    expect(() => parseRemoteAddress(addr, {}, admin, localRoot)).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });

  it('allows local paths only to site admins, and only under the import root', () => {
    expect(() => parseRemoteAddress('/srv/imports/a.git', {}, user, localRoot)).toThrow('You are not allowed to import local repositories.');
    expect(() => parseRemoteAddress('/srv/imports/a.git', {}, admin, noLocal)).toThrow('You are not allowed to import local repositories.');
    expect(() => parseRemoteAddress('/srv/imports/../../etc', {}, admin, localRoot)).toThrow(/outside the allowed import root/);
    expect(parseRemoteAddress('/srv/imports/team/a.git', {}, admin, localRoot)).toMatchObject({ kind: 'local', path: '/srv/imports/team/a.git' });
  });

  it('scrubs credentials from messages', () => {
    expect(scrubSecrets("fatal: unable to access 'https://bob:pw@example.com/r.git/': 403", ['pw'])).toBe("fatal: unable to access 'https://example.com/r.git/': 403");
    expect(scrubSecrets('token tok123 rejected', ['tok123'])).toBe('token <credentials> rejected');
  });
});

describe('mirror intervals', () => {
  it('reads and prints Go durations', () => {
    expect(parseGoDuration('8h')).toBe(8 * 3_600_000);
    expect(parseGoDuration('1h30m')).toBe(90 * 60_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('ten minutes')).toBeUndefined();
    expect(formatGoDuration(8 * 3_600_000)).toBe('8h0m0s');
    expect(formatGoDuration(10 * 60_000)).toBe('10m0s');
  });
});
