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

/**
 * Every deployable: at most two malloc arenas. glibc gives each thread that allocates an
 * arena of its own (up to 8 per core), and node's threads (libuv's pool, V8's workers) each
 * keep a few MiB touched in theirs; the allocations that matter are V8's, made in its own
 * heap, so the arenas buy nothing but resident memory (`pnpm bench`, footprint part).
 */
export const LEAN_MALLOC_TUNABLES = 'glibc.malloc.arena_max=2';

/**
 * V8 flags per deployable (`pnpm bench`, footprint part, says what each saves):
 * - the young generation is capped at 2 MiB per semi-space (default 16): loading modules at
 *   start makes most young objects survive, which grows it to its maximum, and it stays that
 *   size long after; requests' garbage dies young either way, so a smaller nursery costs
 *   only more, equally cheap, scavenges (4 MiB held 4 MiB more per process, for no
 *   throughput we could measure);
 * - the services run WebAssembly with V8's baseline compiler only: Prisma's query compiler
 *   is a 3.4 MB WebAssembly module, and optimising its hot functions in the background adds
 *   about 40 MiB of code per process, for no measurable gain (≈ 220 µs of CPU per raw query
 *   and ≈ 320 per findFirst with include, either way). The gateway runs no WebAssembly.
 */
export function deployableNodeFlags(name: DeployableName): string[] {
  return name === 'gateway' ? ['--max-semi-space-size=2'] : ['--max-semi-space-size=2', '--liftoff-only'];
}

/** `env` with the malloc settings `name` runs best with, unless it has its own. */
export function deployableEnv(name: DeployableName, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.GLIBC_TUNABLES !== undefined) return env;
  const tunables = STREAMS_GIT_DATA.has(name) ? `${LEAN_MALLOC_TUNABLES}:${STREAMING_MALLOC_TUNABLES}` : LEAN_MALLOC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: tunables };
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
   * Starts `node <dir>/dist/main.js` for a deployable, with `env`, the deployable's malloc
   * settings (deployableEnv) and V8 flags (deployableNodeFlags, then `nodeFlags`). It runs in
   * our working directory so relative paths in its env (ANVIL_CONFIG) mean what they mean to us.
   */
  startDeployable(name: DeployableName, env: NodeJS.ProcessEnv, options: { root?: string; cwd?: string; nodeFlags?: readonly string[] } = {}): void {
    const entry = deployableEntry(name, options.root);
    if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`pnpm build\` first`);
    const args = [...deployableNodeFlags(name), ...(options.nodeFlags ?? []), entry];
    this.start({ name, command: process.execPath, args, env: deployableEnv(name, env), cwd: options.cwd ?? process.cwd() });
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

  /**
   * Sends `sig` to the child's whole group without asking it to stop, as the kernel's OOM
   * killer or an operator's kill -9 would (its exit is reported as not expected), and waits.
   */
  async kill(name: string, sig: NodeJS.Signals = 'SIGKILL'): Promise<ProcessExit | undefined> {
    const entry = this.entries.get(name);
    if (!entry || entry.exit) return entry?.exit;
    signal(entry.child, sig, true);
    return entry.exited;
  }

  /** Stops every running child, latest started first. */
  async stopAll(timeoutMs?: number): Promise<void> {
    for (const name of this.running().reverse()) await this.stop(name, timeoutMs);
  }

  /**
   * Lets our own process exit while the children run: neither they nor their output pipes
   * hold its event loop any longer (an exit handler calling killAllSync still takes them
   * along). Children started later are held as usual.
   */
  unref(): void {
    for (const entry of this.entries.values()) {
      entry.child.unref();
      for (const pipe of [entry.child.stdout, entry.child.stderr]) (pipe as { unref?: () => void } | null)?.unref?.();
    }
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
