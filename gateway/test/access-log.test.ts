import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { DomainError, type Logger } from '@anvil/kit';
import { accessLog, loggedPath, traceIdOf } from '../src/http/access-log.js';
import { logFailure } from '../src/http/errors.js';

const LEVELS = ['debug', 'info', 'warn', 'error'];

/** A logger that keeps its lines, writing those at `minimum` and above (as ANVIL_LOG_LEVEL). */
function recordingLogger(minimum = 'info') {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const enabled = (level: string) => LEVELS.indexOf(level) >= LEVELS.indexOf(minimum);
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => { if (enabled(level)) lines.push({ level, fields, msg }); };
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error'), isLevelEnabled: enabled } as unknown as Logger };
}

describe('the access log', () => {
  const { lines, log } = recordingLogger();
  const app = express();
  app.use(accessLog(log));
  app.use((req, res, next) => { res.locals.auth = { caller: { login: 'ada' } }; next(); });
  app.get('/api/v1/user', (_req, res) => { res.status(200).json({}); });
  const server = app.listen(0);
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('writes one line per request with method, path without the query, status, duration, user and trace id', async () => {
    const res = await fetch(`${base()}/api/v1/user?token=secret-token`, { headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` } });
    await res.text();
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', fields: { method: 'GET', path: '/api/v1/user', status: 200, user: 'ada', trace: 'a'.repeat(32) } });
    expect(typeof lines[0]!.fields.ms).toBe('number');
    expect(JSON.stringify(lines[0])).not.toContain('secret-token');
  });

  it('writes nothing, and still answers, when the log level is above info', async () => {
    const quiet = recordingLogger('warn');
    const app2 = express();
    app2.use(accessLog(quiet.log));
    app2.get('/api/v1/version', (_req, res) => { res.status(200).json({ version: '1' }); });
    const server2 = app2.listen(0);
    try {
      const res = await fetch(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/api/v1/version`);
      expect(res.status).toBe(200);
      await res.text();
      await new Promise((r) => setImmediate(r));
      expect(quiet.lines).toEqual([]);
    } finally {
      await new Promise<void>((done) => server2.close(() => done()));
    }
  });

  it('takes the trace id from X-Request-Id, or makes one', () => {
    expect(traceIdOf({ 'x-request-id': 'req-42' })).toBe('req-42');
    expect(traceIdOf({})).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf({ 'x-request-id': 'bad id with spaces' })).toMatch(/^[0-9a-f]{32}$/);
    expect(loggedPath('/a/b?access_token=x')).toBe('/a/b');
  });
});

describe('failures in the log', () => {
  it('a 503 (a service still starting) is one warning without a stack; other 5xx keep the error', () => {
    const { lines, log } = recordingLogger();
    logFailure(log, 503, new DomainError('unavailable', 'No connection established', 'unavailable'), { route: 'repoGet' });
    logFailure(log, 500, new Error('boom'), { route: 'repoGet' });
    logFailure(log, 404, new Error('not found'), { route: 'repoGet' });
    expect(lines.map((l) => l.level)).toEqual(['warn', 'error']);
    expect(lines[0]!.fields).toEqual({ route: 'repoGet', reason: 'No connection established' });
    expect(lines[1]!.fields.err).toBeInstanceOf(Error);
  });
});
