// The process runner on tiny node children: prefixing (including a final line without a
// newline and stderr), stop() by signal, SIGKILL when the signal is ignored, exits
// reported as unexpected when nobody asked for them, and children that no longer hold us.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { deployableEntry, LEAN_MALLOC_TUNABLES, ProcessRunner, STREAMING_MALLOC_TUNABLES, type DeployableName, type ProcessExit } from '../src/processes.js';

function capture() {
  const lines: Array<{ text: string; stream: string }> = [];
  const exits: ProcessExit[] = [];
  const runner = new ProcessRunner({
    color: false,
    write: (text, stream) => lines.push(...text.split('\n').filter(Boolean).map((t) => ({ text: t, stream }))),
    onExit: (exit) => exits.push(exit),
  });
  return { runner, lines, exits };
}

const node = (name: string, script: string) => ({ name, command: process.execPath, args: ['-e', script] });

describe('ProcessRunner', () => {
  it('prefixes every line with the name and reports the exit', async () => {
    const { runner, lines, exits } = capture();
    runner.start(node('echo', `process.stdout.write('one\\ntw'); setTimeout(() => { process.stdout.write('o\\nthree'); console.error('oops'); }, 20)`));
    const exit = await runner.exited('echo');
    expect(exit).toMatchObject({ name: 'echo', code: 0, expected: false });
    expect(exits).toEqual([exit]);
    const pad = 'echo'.padEnd('collaboration'.length);
    expect(lines.filter((l) => l.stream === 'stdout').map((l) => l.text)).toEqual([`${pad} | one`, `${pad} | two`, `${pad} | three`]);
    expect(lines.filter((l) => l.stream === 'stderr').map((l) => l.text)).toEqual([`${pad} | oops`]);
    // The tail keeps both streams; how two pipes interleave is up to the OS, so only the
    // lines themselves are compared (each stream's own order is checked above).
    expect([...runner.tail('echo')].sort()).toEqual(['one', 'oops', 'three', 'two']);
    expect(runner.isRunning('echo')).toBe(false);
  });

  it('pretty-prints pino lines when asked', async () => {
    const lines: string[] = [];
    const runner = new ProcessRunner({ color: false, pretty: true, write: (text) => lines.push(text) });
    runner.start(node('svc', `console.log(JSON.stringify({ level: 30, time: 1, pid: 1, hostname: 'h', svc: 'svc', msg: 'ready', port: 5 }))`));
    await runner.exited('svc');
    expect(lines.join('')).toContain('svc           | INFO  ready port=5');
  });

  it('stops a child with SIGTERM and marks the exit expected', async () => {
    const { runner, exits } = capture();
    runner.start(node('sleeper', `process.on('SIGTERM', () => { console.log('bye'); process.exit(0); }); console.log('up'); setInterval(() => {}, 1000)`));
    // Wait for it to install its handler (it says "up") before signalling.
    while (!runner.tail('sleeper').includes('up')) await new Promise((r) => setTimeout(r, 10));
    const exit = await runner.stop('sleeper');
    expect(exit).toMatchObject({ code: 0, signal: null, expected: true });
    expect(runner.tail('sleeper')).toContain('bye');
    expect(exits).toHaveLength(1);
    expect(await runner.stop('sleeper')).toBe(exit); // stopping twice is harmless
  });

  it('unref lets our process exit while a child runs: neither the child nor its pipes keep it alive', async () => {
    const { runner, exits } = capture();
    const holding = (type: string) => process.getActiveResourcesInfo().filter((t) => t === type).length;
    const [processes, pipes] = [holding('ProcessWrap'), holding('PipeWrap')];
    runner.start(node('idle', `console.log('up'); setInterval(() => {}, 1000)`));
    try {
      expect([holding('ProcessWrap'), holding('PipeWrap')]).toEqual([processes + 1, pipes + 2]);
      runner.unref();
      expect([holding('ProcessWrap'), holding('PipeWrap')]).toEqual([processes, pipes]);
      // Its output is still read, and it is still ours to stop.
      while (!runner.tail('idle').includes('up')) await new Promise((r) => setTimeout(r, 10));
      expect(await runner.stop('idle')).toMatchObject({ expected: true });
      expect(exits).toHaveLength(1);
    } finally {
      await runner.kill('idle');
    }
  });

  it('kills a child that ignores the stop signal after the timeout', async () => {
    const { runner } = capture();
    runner.start(node('stubborn', `process.on('SIGTERM', () => console.log('ignored')); console.log('up'); setInterval(() => {}, 1000)`));
    while (!runner.tail('stubborn').includes('up')) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    const exit = await runner.stop('stubborn', 300);
    expect(exit).toMatchObject({ signal: 'SIGKILL', expected: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(runner.tail('stubborn')).toContain('ignored');
  });

  it('reports a command that cannot start', async () => {
    const { runner } = capture();
    runner.start({ name: 'missing', command: '/nonexistent/anvil-test-binary' });
    const exit = await runner.exited('missing');
    expect(exit.error?.message).toMatch(/ENOENT/);
    expect(exit.expected).toBe(false);
  });

  it('stopAll stops the latest started first and refuses duplicate names', async () => {
    const { runner, exits } = capture();
    for (const name of ['a', 'b']) runner.start(node(name, `setInterval(() => {}, 1000)`));
    expect(() => runner.start(node('a', ''))).toThrow(/already running/);
    expect(runner.running()).toEqual(['a', 'b']);
    await runner.stopAll();
    expect(exits.map((e) => e.name)).toEqual(['b', 'a']);
    expect(runner.running()).toEqual([]);
  });

  it('runs every deployable with two malloc arenas and a small young generation, the streaming ones keeping freed heap, unless the operator set their own', async () => {
    const root = await mkdtemp(join(tmpdir(), 'anvil-deployables-'));
    try {
      const names: DeployableName[] = ['gateway', 'repository', 'hooks'];
      for (const name of names) {
        await mkdir(dirname(deployableEntry(name, root)), { recursive: true });
        await writeFile(deployableEntry(name, root), `console.log(process.env.GLIBC_TUNABLES ?? 'unset', process.execArgv.join(' '))`);
      }
      const seen = async (name: DeployableName, env: NodeJS.ProcessEnv) => {
        const { runner, lines } = capture();
        runner.startDeployable(name, env, { root });
        await runner.exited(name);
        return lines.map((l) => l.text.split('| ')[1]);
      };
      const env = { PATH: process.env.PATH };
      const flags = '--max-semi-space-size=2';
      expect(await seen('gateway', env)).toEqual([`${LEAN_MALLOC_TUNABLES}:${STREAMING_MALLOC_TUNABLES} ${flags}`]);
      expect(await seen('repository', env)).toEqual([`${LEAN_MALLOC_TUNABLES}:${STREAMING_MALLOC_TUNABLES} ${flags} --liftoff-only`]);
      expect(await seen('hooks', env)).toEqual([`${LEAN_MALLOC_TUNABLES} ${flags} --liftoff-only`]);
      expect(await seen('gateway', { ...env, GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' })).toEqual([`glibc.malloc.arena_max=4 ${flags}`]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
