// The end-to-end suites' HTTP client. Every JSON response is checked against the schema
// the contract document gives that operation and status (DESIGN.md §1); a mismatch, or a
// status the operation does not declare, fails the test that made the request.
import { request as httpRequest } from 'node:http';
import { validateResponse } from '../../gateway/src/contract/index.js';

export type Auth = { token: string } | { basic: [string, string] } | undefined;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export class ContractViolation extends Error {}

/** Gitea's token middleware (a missing scope, a public-only token on a private repository) answers 403 on every route. */
function isScopeDenial(status: number, body: unknown): boolean {
  const message = (body as { message?: unknown } | null)?.message;
  return status === 403 && typeof message === 'string'
    && (message.startsWith('token does not have at least one of required scope(s)') || /^token scope is limited to public (repos|orgs)$/.test(message));
}

export class ApiClient {
  readonly baseUrl: string;

  /** `baseUrl` is the gateway's root, with or without its trailing "/". */
  constructor(baseUrl: string, readonly auth: Auth = undefined) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  as(auth: Auth): ApiClient {
    return new ApiClient(this.baseUrl, auth);
  }

  /**
   * `validateAs` names the contract path a response is checked against when the route is one
   * Anvil's spec adds under another path (GET /commits/{ref} answers as /git/commits/{sha}).
   */
  async request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; validateAs?: string } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.auth && 'token' in this.auth) headers.authorization = `token ${this.auth.token}`;
    if (this.auth && 'basic' in this.auth) headers.authorization = `Basic ${Buffer.from(this.auth.basic.join(':')).toString('base64')}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    const pathOnly = (options.validateAs ?? path).split('?')[0];
    const problems = validateResponse(method, pathOnly, res.status, isJson ? parsed : undefined, {
      // Gitea's token middleware answers 403 on every route though few declare it.
      // 413 is the body limit, which stands before every route as a proxy's would.
      crossCutting: isScopeDenial(res.status, parsed) ? [401, 403, 413] : [401, 413],
    });
    if (problems.length) {
      throw new ContractViolation(`${method} ${path} → ${res.status} does not match the contract:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 500)}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /**
   * For the statuses Gitea sends though its document does not declare them (a 403 where only
   * 200/404 are listed, a 422 where Gitea itself answers 500): the request goes out unchecked,
   * redirects are not followed, and the caller asserts on status, Location and message.
   */
  async undeclared(method: string, path: string, body?: unknown): Promise<{ status: number; location: string | null; message?: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.auth && 'token' in this.auth) headers.authorization = `token ${this.auth.token}`;
    if (this.auth && 'basic' in this.auth) headers.authorization = `Basic ${Buffer.from(this.auth.basic.join(':')).toString('base64')}`;
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method, redirect: 'manual', headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, location: res.headers.get('location'), message: text ? (JSON.parse(text) as { message?: string }).message : undefined };
  }

  /**
   * For operations that answer 205 Reset Content with a JSON body (Gitea's notification
   * marking): fetch drops the body of a 205 (a null-body status), so this one request goes
   * through node:http and is checked against the contract like any other.
   */
  async resetContent<T = any>(method: 'PUT' | 'PATCH', path: string): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.auth && 'token' in this.auth) headers.authorization = `token ${this.auth.token}`;
    if (this.auth && 'basic' in this.auth) headers.authorization = `Basic ${Buffer.from(this.auth.basic.join(':')).toString('base64')}`;
    const { status, headers: received, text } = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
      const req = httpRequest(`${this.baseUrl}/api/v1${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) h.set(name, Array.isArray(value) ? value.join(', ') : value);
          resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.on('error', reject);
      req.end();
    });
    const isJson = (received.get('content-type') ?? '').includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    const problems = validateResponse(method, path.split('?')[0], status, isJson ? parsed : undefined, {
      crossCutting: isScopeDenial(status, parsed) ? [401, 403, 413] : [401, 413],
    });
    if (problems.length) {
      throw new ContractViolation(`${method} ${path} → ${status} does not match the contract:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 500)}`);
    }
    return { status, headers: received, body: parsed as T, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, body?: unknown) {
    return this.request<T>('POST', path, { body });
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, { body });
  }
  put<T = any>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, { body });
  }
  delete<T = any>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, { body });
  }
}
