import { describe, expect, it } from '@jest/globals';
import { parseRemoteAddress } from '../src/domain/remote-address.js';
import { RemoteGuard } from '../src/git/remote-guard.js';

const address = (url: string) => parseRemoteAddress(url, {}, { isAdmin: false }, { importLocalPaths: false, allowedLocalRoot: '' });
const defaults = { allowLocalNetworks: false, allowedDomains: [], blockedDomains: [] };
const refused = expect.objectContaining({ code: 'ANVIL_OUTBOUND_REFUSED' });

describe('the [migrations] guard on remotes', () => {
  it.each([
    'http://127.0.0.1/r.git', 'http://localhost/r.git', 'http://[::1]/r.git', 'http://0.0.0.0/r.git', 'http://10.0.0.8/r.git',
    'http://172.16.0.1/r.git', 'http://192.168.1.1/r.git', 'http://169.254.169.254/r.git', 'http://[fd00::1]/r.git',
    'http://[::ffff:127.0.0.1]/r.git', 'git://127.0.0.1/r.git',
  ])('refuses %s while local networks are not allowed', async (url) => {
    await expect(new RemoteGuard(defaults).check(address(url))).rejects.toEqual(refused);
  });

  it('pins to the address it checked', async () => {
    await expect(new RemoteGuard({ ...defaults, allowLocalNetworks: true }).check(address('http://127.0.0.1:3000/r.git'))).resolves.toEqual({ address: '127.0.0.1' });
    await expect(new RemoteGuard(defaults).check(address('http://93.184.216.34/r.git'))).resolves.toEqual({ address: '93.184.216.34' });
  });

  it('allows only ALLOWED_DOMAINS when set, and never BLOCKED_DOMAINS', async () => {
    const allowList = new RemoteGuard({ ...defaults, allowedDomains: ['93.184.216.0/24'] });
    await expect(allowList.check(address('http://93.184.216.34/r.git'))).resolves.toBeDefined();
    await expect(allowList.check(address('http://8.8.8.8/r.git'))).rejects.toEqual(refused);
    const blockList = new RemoteGuard({ ...defaults, blockedDomains: ['8.8.8.0/24'] });
    await expect(blockList.check(address('http://8.8.8.8/r.git'))).rejects.toEqual(refused);
    await expect(blockList.check(address('http://93.184.216.34/r.git'))).resolves.toBeDefined();
  });

  it('keeps refusing private addresses an allow list names, unless local networks are allowed (as Gitea)', async () => {
    await expect(new RemoteGuard({ ...defaults, allowedDomains: ['127.0.0.1/32'] }).check(address('http://127.0.0.1/r.git'))).rejects.toEqual(refused);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(new RemoteGuard(defaults).check(address('http://no-such-host.invalid/r.git'))).rejects.toEqual(refused);
  });
});
