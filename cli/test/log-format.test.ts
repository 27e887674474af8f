// pino lines become readable on a terminal; everything else passes through unchanged.
import { describe, expect, it } from '@jest/globals';
import { formatLogLine } from '../src/log-format.js';

describe('formatLogLine', () => {
  it('leaves non-JSON and broken JSON alone', () => {
    expect(formatLogLine('[123] 2024/01/01 [INF] Starting nats-server', false)).toBe('[123] 2024/01/01 [INF] Starting nats-server');
    expect(formatLogLine('{"level":30,', false)).toBe('{"level":30,');
  });

  it('drops the noise fields and shows the rest as key=value', () => {
    const line = JSON.stringify({ level: 40, time: 1, pid: 2, hostname: 'h', svc: 'hooks', msg: 'slow delivery', url: 'http://x', ms: 1200 });
    expect(formatLogLine(line, false)).toBe('WARN  slow delivery url=http://x ms=1200');
    expect(formatLogLine(line, true)).toBe('\u001b[33mWARN \u001b[0m slow delivery url=http://x ms=1200');
  });

  it('shows an error stack on its own lines', () => {
    const line = JSON.stringify({ level: 50, msg: 'boom', err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f' } });
    expect(formatLogLine(line, false)).toBe('ERROR boom \nError: x\n    at f');
  });
});
