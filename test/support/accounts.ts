// Users for the end-to-end suites: made by the site admin through the API, signed in with
// their password, and — when a suite works with repositories — known to the repository
// service, which learns about users from identity's events a moment after identity answers.
import { expect } from '@jest/globals';
import type { ApiClient } from './api-client.js';

export interface TestUser {
  username: string;
  password: string;
  email: string;
  id: number;
  /** The User JSON the admin API answered. */
  user: any;
  /** Signed in with Basic auth (the password). */
  client: ApiClient;
}

export interface Accounts {
  /** `prefix` + a serial + a time stamp: unique within and across runs on one database. */
  unique(prefix?: string): string;
  /** Retries `request` until it answers `status` (for state other services learn from events). */
  eventually(request: () => Promise<{ status: number }>, status: number): Promise<void>;
  /** A fresh user; `repositoryKnows: false` skips waiting for the repository service. */
  newUser(fields?: Record<string, unknown>, options?: { repositoryKnows?: boolean }): Promise<TestUser>;
  /** A personal access token of `user` with `scopes`; answers its secret. */
  newToken(user: Pick<TestUser, 'username' | 'client'>, scopes: string[]): Promise<string>;
}

export function accounts(admin: ApiClient, prefix: string): Accounts {
  let serial = 0;
  const unique = (p = prefix) => `${p}${++serial}-${Date.now() % 100000}`;

  async function eventually(request: () => Promise<{ status: number }>, status: number): Promise<void> {
    let last = 0;
    for (let attempt = 0; attempt < 200; attempt += 1) {
      last = (await request()).status;
      if (last === status) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`still ${last}, never ${status}`);
  }

  async function newUser(fields: Record<string, unknown> = {}, { repositoryKnows = true } = {}): Promise<TestUser> {
    const username = unique();
    const password = `pass-${username}-word`;
    const email = `${username}@example.com`;
    const res = await admin.post('/admin/users', { username, email, password, must_change_password: false, ...fields });
    expect(res.status).toBe(201);
    // The admin sees every owner, whatever its visibility.
    if (repositoryKnows) await eventually(() => admin.get(`/users/${username}/repos`), 200);
    return { username, password, email, id: res.body.id as number, user: res.body, client: admin.as({ basic: [username, password] }) };
  }

  async function newToken(user: Pick<TestUser, 'username' | 'client'>, scopes: string[]): Promise<string> {
    const res = await user.client.post(`/users/${user.username}/tokens`, { name: unique('token'), scopes });
    expect(res.status).toBe(201);
    return res.body.sha1 as string;
  }

  return { unique, eventually, newUser, newToken };
}
