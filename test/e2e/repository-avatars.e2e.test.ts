// Repository avatars: an admin uploads an image as base64, the Repository JSON's avatar_url
// names it and serves those very bytes; a bad upload changes nothing; DELETE removes it.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';

jest.setTimeout(90_000);

let e2e: E2e;
let anonymous: ApiClient;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'avatar-user' });
  ({ anonymous } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF_1X1 = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

async function newRepository(owner: Writer, name: string): Promise<string> {
  expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

describe('repository avatars', () => {
  test('an uploaded image is named in avatar_url, served there, replaced and removed', async () => {
    const owner = await e2e.newWriter();
    const path = await newRepository(owner, 'pictured');
    expect((await anonymous.get(path)).body.avatar_url).toBe('');

    expect((await owner.client.post(`${path}/avatar`, { image: PNG_1X1 })).status).toBe(204);
    const url = (await anonymous.get(path)).body.avatar_url as string;
    expect(url).toMatch(new RegExp(`^${e2e.system.baseUrl.replace(/\/?$/, '/')}repo-avatars/[0-9a-f]{64}$`));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.from(PNG_1X1, 'base64'));

    // The same image again changes nothing; another one gets another name and the old is gone.
    expect((await owner.client.post(`${path}/avatar`, { image: PNG_1X1 })).status).toBe(204);
    expect((await anonymous.get(path)).body.avatar_url).toBe(url);
    expect((await owner.client.post(`${path}/avatar`, { image: GIF_1X1 })).status).toBe(204);
    const replaced = (await anonymous.get(path)).body.avatar_url as string;
    expect(replaced).not.toBe(url);
    expect((await fetch(replaced)).headers.get('content-type')).toBe('image/gif');
    expect((await fetch(url)).status).toBe(404);

    expect((await owner.client.delete(`${path}/avatar`)).status).toBe(204);
    expect((await anonymous.get(path)).body.avatar_url).toBe('');
    expect((await fetch(replaced)).status).toBe(404);
    expect((await owner.client.delete(`${path}/avatar`)).status).toBe(204);
  });

  test('what is no image within the limits is refused and nothing changes', async () => {
    const owner = await e2e.newWriter();
    const path = await newRepository(owner, 'picky');
    expect((await owner.client.post(`${path}/avatar`, { image: PNG_1X1 })).status).toBe(204);
    const before = (await anonymous.get(path)).body.avatar_url;

    const notBase64 = await owner.client.undeclared('POST', `${path}/avatar`, { image: 'not base64!' });
    expect(notBase64.status).toBe(400);
    const text = await owner.client.undeclared('POST', `${path}/avatar`, { image: Buffer.from('<svg/>').toString('base64') });
    expect([text.status, text.message]).toEqual([422, 'image: unknown format (PNG, JPEG, GIF or WebP expected)']);
    const huge = Buffer.from(PNG_1X1, 'base64');
    huge.writeUInt32BE(5000, 16);
    const wide = await owner.client.undeclared('POST', `${path}/avatar`, { image: huge.toString('base64') });
    expect([wide.status, wide.message]).toEqual([422, 'image width is too large: 5000 > 4096']);
    const big = Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(1024 * 1024)]);
    expect((await owner.client.undeclared('POST', `${path}/avatar`, { image: big.toString('base64') })).status).toBe(422);

    expect((await anonymous.get(path)).body.avatar_url).toBe(before);
  });

  test('only repository admins change it; a private repository the caller cannot see is 404', async () => {
    const owner = await e2e.newWriter();
    const stranger = await e2e.newWriter();
    const path = await newRepository(owner, 'guarded');
    expect((await stranger.client.undeclared('POST', `${path}/avatar`, { image: PNG_1X1 })).status).toBe(403);
    expect((await stranger.client.undeclared('DELETE', `${path}/avatar`)).status).toBe(403);
    expect((await anonymous.post(`${path}/avatar`, { image: PNG_1X1 })).status).toBe(401);
    expect((await owner.client.post('/user/repos', { name: 'hidden', private: true })).status).toBe(201);
    expect((await stranger.client.post(`/repos/${owner.username}/hidden/avatar`, { image: PNG_1X1 })).status).toBe(404);
    expect((await fetch(`${e2e.system.baseUrl.replace(/\/?$/, '/')}repo-avatars/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
