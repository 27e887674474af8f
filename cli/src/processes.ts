// Runs named child processes for the supervisor (`anvil start`) and the e2e harness:
// every output line gets the child's name as prefix, exits are reported with whether
// we asked for them, and stop() is SIGTERM, then SIGKILL after a timeout.
//
// Children run in their own process group (detached) so a Ctrl-C on the terminal reaches
// only the supervisor, which then stops them in order (gateway, services, infrastructure)
// instead of everyone dying at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { colorize, formatLogLine } from './log-format.js';

export type DeployableName = 'identity' | 'repository' | 'collaboration' | 'hooks' | 'gateway';
export const SERVICES: readonly DeployableName[] = ['identity', 'repository', 'collaboration', 'hooks'];
export const DEPLOYABLES: readonly DeployableName[] = [...SERVICES, 'gateway'];
const DEPLOYABLE_DIRS: Record<DeployableName, string> = {
  identity: 'services/identity',
  repository: 'services/repository',
  collaboration: 'services/collaboration',
  hooks: 'services/hooks',
  gateway: 'gateway',
};

/**
 * glibc's malloc settings for the deployables that stream git data (packs, archives, raw
 * files), used unless the environment sets GLIBC_TUNABLES itself; the images set the same
 * (deploy/docker/Dockerfile). V8 frees a stream's read buffers in bulk at a major GC, and by
 * default glibc hands the freed top of the heap back to the kernel at once, so the next
 * reads fault fresh pages in: the gateway spent about 400 ms of CPU proxying a 50 MB clone
 * instead of about 120, and the clone took a tenth longer (`pnpm bench`, README). Keeping up
 * to 256 MiB of freed heap costs resident memory only after such a burst.
 */
export const STREAMING_MALLOC_TUNABLES = 'glibc.malloc.trim_threshold=268435456';
const STREAMS_GIT_DATA: ReadonlySet<DeployableName> = new Set(['gateway', 'repository']);

/** `env` with the malloc settings `name` runs best with, unless it has its own. */
export function deployableEnv(name: DeployableName, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!STREAMS_GIT_DATA.has(name) || env.GLIBC_TUNABLES !== undefined) return env;
  return { ...env, GLIBC_TUNABLES: STREAMING_MALLOC_TUNABLES };
}

/** The workspace root: this file is cli/src/processes.ts or cli/dist/processes.js. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `<root>/<dir>/dist/main.js`, the built entry point of a deployable. */
export function deployableEntry(name: DeployableName, root = REPO_ROOT): string {
  return join(root, DEPLOYABLE_DIRS[name], 'dist', 'main.js');
}

export interface ProcessSpec {
  name: string;
  command: string;
  args?: string[];
  /** The child's whole environment (not merged with ours: callers decide). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as another user (PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** What asks this program to shut down cleanly; SIGTERM unless it says otherwise. */
  stopSignal?: NodeJS.Signals;
}

export interface ProcessExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when stop() asked for it; false means the child died on its own. */
  expected: boolean;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  error?: Error;
}

export interface ProcessRunnerOptions {
  /** Where prefixed lines go; defaults to our own stdout/stderr. */
  write?: (text: string, stream: 'stdout' | 'stderr') => void;
  /** Colored names and levels; defaults to whether stdout is a terminal. */
  color?: boolean;
  /** Reformat pino JSON lines for people; defaults to ANVIL_LOG_FORMAT (`pretty` or `json`), else `color`. */
  pretty?: boolean;
  /** Called once per child exit, expected or not. */
  onExit?: (exit: ProcessExit) => void;
  /** How long stop() waits after the stop signal before SIGKILL. */
  stopTimeoutMs?: number;
  /** Lines of output kept per child for error messages. */
  tailLines?: number;
}

interface Entry {
  spec: ProcessSpec;
  child: ChildProcess;
  stopping: boolean;
  exit?: ProcessExit;
  exited: Promise<ProcessExit>;
  tail: string[];
}

const PALETTE = ['36', '35', '33', '32', '34', '96', '95', '93', '92', '94'];

export class ProcessRunner {
  private readonly entries = new Map<string, Entry>();
  private readonly colors = new Map<string, string>();
  private readonly write: (text: string, stream: 'stdout' | 'stderr') => void;
  private readonly color: boolean;
  private readonly pretty: boolean;
  // Wide enough for every deployable's name up front, so prefixes line up from the first line.
  private width = Math.max(...DEPLOYABLES.map((n) => n.length));

  constructor(private readonly options: ProcessRunnerOptions = {}) {
    this.write = options.write ?? ((text, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(text));
    this.color = options.color ?? Boolean(process.stdout.isTTY);
    const format = process.env.ANVIL_LOG_FORMAT;
    this.pretty = options.pretty ?? (format === 'pretty' ? true : format === 'json' ? false : this.color);
  }

  start(spec: ProcessSpec): void {
    if (this.isRunning(spec.name)) throw new Error(`${spec.name} is already running`);
    this.register(spec.name);

    const child = spawn(spec.command, spec.args ?? [], {
      env: spec.env ?? process.env,
      cwd: spec.cwd,
      uid: spec.uid,
      gid: spec.gid,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entry = { spec, child, stopping: false, tail: [] as string[] } as Entry;
    entry.exited = new Promise<ProcessExit>((resolveExit) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
        if (entry.exit) return;
        entry.exit = { name: spec.name, code, signal, expected: entry.stopping, error };
        if (error) this.emit(entry, `failed to start ${spec.command}: ${error.message}`, 'stderr');
        this.options.onExit?.(entry.exit);
        resolveExit(entry.exit);
      };
      child.once('error', (error) => finish(null, null, error));
      // 'close' rather than 'exit': it comes after the last output line, so the tail is complete.
      child.once('close', (code, signal) => finish(code, signal));
    });
    this.pipeLines(entry, 'stdout');
    this.pipeLines(entry, 'stderr');
    this.entries.set(spec.name, entry);
  }

  /**
   * Starts `node <dir>/dist/main.js` for a deployable, with `env` and the deployable's
   * malloc settings (deployableEnv). It runs in our working directory so relative paths in
   * its env (ANVIL_CONFIG) mean what they mean to us.
   */
  startDeployable(name: DeployableName, env: NodeJS.ProcessEnv, options: { root?: string; cwd?: string } = {}): void {
    const entry = deployableEntry(name, options.root);
    if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`pnpm build\` first`);
    this.start({ name, command: process.execPath, args: [entry], env: deployableEnv(name, env), cwd: options.cwd ?? process.cwd() });
  }

  /** Prints a line of our own under `name`, aligned and colored like the children's. */
  print(name: string, line: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    this.register(name);
    this.write(`${this.prefix(name)} ${line}\n`, stream);
  }

  isRunning(name: string): boolean {
    const entry = this.entries.get(name);
    return entry !== undefined && entry.exit === undefined;
  }

  /** Names of children still running, in start order. */
  running(): string[] {
    return [...this.entries.values()].filter((e) => !e.exit).map((e) => e.spec.name);
  }

  /** Resolves when the named child exits (at once if it already has). */
  exited(name: string): Promise<ProcessExit> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.reject(new Error(`no process named ${name}`));
    return entry.exited;
  }

  /** The last lines the child printed, for error messages. */
  tail(name: string): string[] {
    return [...(this.entries.get(name)?.tail ?? [])];
  }

  /** Asks the child to stop and waits; SIGKILLs its whole group after the timeout. */
  async stop(name: string, timeoutMs = this.options.stopTimeoutMs ?? 10_000): Promise<ProcessExit | undefined> {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.exit) return entry.exit;
    entry.stopping = true;
    // Only the main process gets the polite signal: it knows how to wind down its own
    // children (e.g. git); the hard kill below goes to the whole group.
    signal(entry.child, entry.spec.stopSignal ?? 'SIGTERM', false);
    const timer = setTimeout(() => {
      this.emit(entry, `did not stop within ${timeoutMs} ms; killing it`, 'stderr');
      signal(entry.child, 'SIGKILL', true);
    }, timeoutMs);
    try {
      return await entry.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops every running child, latest started first. */
  async stopAll(timeoutMs?: number): Promise<void> {
    for (const name of this.running().reverse()) await this.stop(name, timeoutMs);
  }

  /**
   * Last resort from a process 'exit' handler (synchronous there): kill every child group
   * so nothing outlives us when the supervisor itself crashes.
   */
  killAllSync(): void {
    for (const entry of this.entries.values()) {
      if (!entry.exit) signal(entry.child, 'SIGKILL', true);
    }
  }

  private pipeLines(entry: Entry, stream: 'stdout' | 'stderr'): void {
    const source = entry.child[stream];
    if (!source) return;
    source.setEncoding('utf8');
    let partial = '';
    source.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.emit(entry, line.replace(/\r$/, ''), stream);
    });
    source.on('end', () => {
      if (partial) this.emit(entry, partial, stream);
      partial = '';
    });
  }

  private register(name: string): void {
    if (!this.colors.has(name)) this.colors.set(name, PALETTE[this.colors.size % PALETTE.length]);
    this.width = Math.max(this.width, name.length);
  }

  private prefix(name: string): string {
    return colorize(`${name.padEnd(this.width)} |`, this.colors.get(name) ?? '0', this.color);
  }

  private emit(entry: Entry, line: string, stream: 'stdout' | 'stderr'): void {
    entry.tail.push(line);
    if (entry.tail.length > (this.options.tailLines ?? 50)) entry.tail.shift();
    const prefix = this.prefix(entry.spec.name);
    const text = this.pretty ? formatLogLine(line, this.color) : line;
    // A formatted line may span several (an error's stack): prefix each one.
    this.write(text.split('\n').map((part) => `${prefix} ${part}\n`).join(''), stream);
  }
}

function signal(child: ChildProcess, sig: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the process group the detached child leads.
    process.kill(group ? -child.pid : child.pid, sig);
  } catch {
    // Already gone.
  }
}
