// Gitea's [webhook] ALLOWED_HOST_LIST semantics over resolved addresses.
import { describe, expect, it } from '@jest/globals';
import { hostList } from '../../src/outbound/host-list.js';

describe('host allow lists', () => {
  const external = hostList(['external']);

  it('lets `external` reach public addresses only', () => {
    expect(external.allows('example.com', '93.184.216.34')).toBe(true);
    expect(external.allows('example.com', '2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '2002:7f00:1::1', '224.0.0.1', '255.255.255.255']) {
      expect([address, external.allows('x', address)]).toEqual([address, false]);
    }
  });

  it('lets `loopback` and `private` reach only their own classes, never 0.0.0.0 or ::', () => {
    const loopback = hostList(['loopback']);
    expect(loopback.allows('localhost', '127.0.0.1')).toBe(true);
    expect(loopback.allows('localhost', '::1')).toBe(true);
    expect(loopback.allows('x', '0.0.0.0')).toBe(false);
    expect(loopback.allows('x', '::')).toBe(false);
    expect(loopback.allows('x', '10.0.0.1')).toBe(false);
    const priv = hostList(['private']);
    expect(priv.allows('x', '10.0.0.1')).toBe(true);
    expect(priv.allows('x', 'fd12::1')).toBe(true);
    expect(priv.allows('x', '127.0.0.1')).toBe(false);
  });

  it('matches CIDRs on the address and globs on the host name; `*` allows everything', () => {
    const list = hostList(['192.168.5.0/24', '*.ci.example.com']);
    expect(list.allows('x', '192.168.5.9')).toBe(true);
    expect(list.allows('x', '192.168.6.9')).toBe(false);
    expect(list.allows('build.ci.example.com', '10.0.0.1')).toBe(true);
    expect(list.allows('ci.example.org', '10.0.0.1')).toBe(false);
    expect(hostList(['*']).allows('x', '0.0.0.0')).toBe(true);
  });

  it('refuses a list entry that looks like a CIDR but is not one', () => {
    expect(() => hostList(['10.0.0.0/99'])).toThrow('not a CIDR');
  });
});
