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

  /** The Authorization header this client's credentials give, if any. */
  private authHeaders(): Record<string, string> {
    if (this.auth && 'token' in this.auth) return { authorization: `token ${this.auth.token}` };
    if (this.auth && 'basic' in this.auth) return { authorization: `Basic ${Buffer.from(this.auth.basic.join(':')).toString('base64')}` };
    return {};
  }

  /** Fails with a ContractViolation unless the answer is one the contract declares for this operation. */
  private check(method: string, path: string, status: number, json: unknown, text: string, conditional = false): void {
    // A conditional GET's bodiless 304 is HTTP's answer to any cached resource, not the operation's.
    if (conditional && status === 304) return;
    // 413 is the body limit, which stands before every route as a proxy's would.
    const crossCutting = [401, 413];
    // Gitea's token middleware answers 403 on every route though few declare it.
    if (isScopeDenial(status, json)) crossCutting.push(403);
    const problems = validateResponse(method, path.split('?')[0], status, json, { crossCutting });
    if (problems.length) {
      throw new ContractViolation(`${method} ${path} → ${status} does not match the contract:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 500)}`);
    }
  }

  /**
   * `validateAs` names the contract path a response is checked against when the route is one
   * Anvil's spec adds under another path (GET /commits/{ref} answers as /git/commits/{sha}).
   * `signal` bounds a request that must not hang.
   */
  async request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; validateAs?: string; signal?: AbortSignal } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...this.authHeaders() };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body, signal: options.signal });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    this.check(method, options.validateAs ?? path, res.status, isJson ? parsed : undefined, text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /**
   * A GET whose answer is bytes (raw files, archives), checked against the contract like any
   * other: the status, and the body when it is JSON (an error). `headers` may make the request
   * conditional (If-None-Match), which lets it answer 304.
   */
  async bytes(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { headers: { ...headers, ...this.authHeaders() } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const text = isJson ? bytes.toString('utf8') : '';
    const conditional = Object.keys(headers).some((name) => /^if-(none-match|modified-since)$/i.test(name));
    this.check('GET', path, res.status, isJson && text ? JSON.parse(text) : undefined, text, conditional);
    return { status: res.status, headers: res.headers, bytes };
  }

  /**
   * For the answers Gitea sends though its document does not declare them (a 403 where only
   * 200/404 are listed, a 422 where Gitea itself answers 500, a 503 while a service is down,
   * a directory's list where one entry is documented): the request goes out unchecked,
   * redirects are not followed, and the caller asserts on status, Location, message and body.
   */
  async undeclared<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; location: string | null; message?: string; body: T }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...this.authHeaders() };
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method, redirect: 'manual', headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    const message = isJson ? (parsed as { message?: string } | null)?.message : undefined;
    return { status: res.status, location: res.headers.get('location'), message, body: parsed as T };
  }

  /**
   * For operations that answer 205 Reset Content with a JSON body (Gitea's notification
   * marking): fetch drops the body of a 205 (a null-body status), so this one request goes
   * through node:http and is checked against the contract like any other.
   */
  async resetContent<T = any>(method: 'PUT' | 'PATCH', path: string): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.authHeaders() };
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
    this.check(method, path, status, isJson ? parsed : undefined, text);
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
