// The one place that builds and runs git command lines (DESIGN.md §7, Gitaly's model).
// Arguments travel as an array to spawn — never parsed by a shell — and user input only
// ever reaches git after `--end-of-options`/`--` or after validation as a ref or object
// id, so a value like `--upload-pack=evil` can never be read as an option.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { currentCallSignal, DomainError, isObjectId, isValidRefName, trackGitProcess } from '@anvil/kit';
import { callerKey, ProcessSlots } from './process-slots.js';

export class GitError extends Error {
  constructor(readonly args: readonly string[], readonly code: number | null, readonly stderr: string) {
    super(`git ${args[0] ?? ''} failed (exit ${code}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitError';
  }
}

/**
 * git's answer when the repository's directory is not there: deleted, renamed or moved
 * (a transfer) while a read of it was on its way.
 */
export function isMissingRepository(err: unknown): boolean {
  return err instanceof GitError && /not a git repository/.test(err.stderr);
}

/** A value git must never read as an option: refused unless it cannot start with `-`. */
export class UnsafeArgument extends Error {}

/** Environment for every git process: no prompts, no user or system config, fixed locale. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...extra,
  };
}

export interface GitCommand {
  /** The argv after `git`, built only by GitCommandBuilder. */
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Record<string, string>;
}

/**
 * Builds one git command line. `flag()` takes constant options written in this codebase;
 * `ref()`/`oid()` take validated values; `afterEndOfOptions()` and `paths()` take user input.
 */
export class GitCommandBuilder {
  private readonly argv: string[];
  private cwdPath?: string;
  private readonly extraEnv: Record<string, string> = {};
  private endedOptions = false;

  constructor(subcommand: string, options: GitOptions = {}) {
    if (!/^[a-z][a-z-]*$/.test(subcommand)) throw new UnsafeArgument(`not a git subcommand: ${subcommand}`);
    // -c options before the subcommand keep hooks and protocol behaviour predictable: no
    // hooks run unless the service names its own hooks directory (receive-pack's pre-receive).
    this.argv = ['-c', `core.hooksPath=${options.hooksPath ?? '/dev/null'}`, '-c', `protocol.file.allow=${options.localSource ? 'always' : 'never'}`];
    if (options.gitDir) this.argv.push(`--git-dir=${options.gitDir}`);
    this.argv.push(subcommand);
  }

  /** A constant option such as `--bare` or `--format=%H`; never user input. */
  flag(...flags: string[]): this {
    for (const f of flags) {
      if (!f.startsWith('-')) throw new UnsafeArgument(`flag() takes options only: ${f}`);
      this.argv.push(f);
    }
    return this;
  }

  /** A constant positional word written in this codebase (`HEAD`, `refs/heads/`); never user input. */
  arg(value: string): this {
    if (value.startsWith('-')) throw new UnsafeArgument(`arg() takes non-options only: ${value}`);
    this.argv.push(value);
    return this;
  }

  /** A ref or revision that passed isSafeRef(); refused when git could read it as an option. */
  ref(value: string): this {
    if (!isValidRefName(value)) throw new UnsafeArgument(`not a valid ref: ${JSON.stringify(value)}`);
    this.argv.push(value);
    return this;
  }

  /** A full object id (sha1 or sha256 hex). */
  oid(value: string): this {
    if (!isObjectId(value)) throw new UnsafeArgument(`not an object id: ${JSON.stringify(value)}`);
    this.argv.push(value);
    return this;
  }

  /** Positional values after `--end-of-options`: git reads none of them as an option. */
  afterEndOfOptions(...values: string[]): this {
    if (!this.endedOptions) this.argv.push('--end-of-options');
    this.endedOptions = true;
    this.argv.push(...values);
    return this;
  }

  /** Paths after `--`. */
  paths(...values: string[]): this {
    this.argv.push('--', ...values);
    return this;
  }

  cwd(dir: string): this {
    this.cwdPath = dir;
    return this;
  }

  env(name: string, value: string): this {
    if (!/^GIT_[A-Z_]+$/.test(name)) throw new UnsafeArgument(`env() sets GIT_* variables only: ${name}`);
    this.extraEnv[name] = value;
    return this;
  }

  build(): GitCommand {
    return { args: [...this.argv], cwd: this.cwdPath, env: { ...this.extraEnv } };
  }
}

export interface GitOptions {
  gitDir?: string;
  /** The service's own hooks directory (an absolute path it created); default: no hooks. */
  hooksPath?: string;
  /**
   * The command reads another repository of this storage root by its path (a fork's clone,
   * a fork's head fetched into its base): git's local transport is allowed for it. The path
   * must come from RepositoryStorage.pathOf, never from a request.
   */
  localSource?: boolean;
}

export function git(subcommand: string, options: GitOptions = {}): GitCommandBuilder {
  return new GitCommandBuilder(subcommand, options);
}

// Git's naming rules are the kit's (git-names.ts), which the gateway applies too; `isSafeRef`
// accepts "main", "refs/heads/x" and "HEAD".
export { isObjectId, isValidBranchName, isValidRefName as isSafeRef, isZeroId } from '@anvil/kit';

export interface RunOptions {
  stdin?: string | Buffer;
  /** Kills git after this long so a request never hangs (default 60 s). */
  timeoutMs?: number;
  /** Exit codes besides 0 that are answers, not failures (`merge-tree` exits 1 on conflicts). */
  answerExitCodes?: number[];
}

// Read processes at once: four in all keeps a burst of reads from crowding out writers and
// the service's own work; one caller gets at most three, so another always finds a slot.
const slots = new ProcessSlots({ perCaller: 3, total: 4 });

/**
 * The repository's directory is gone (deleted or renamed by a request that finished while
 * this one was running): the repository the caller named no longer exists there, a 404.
 */
export class RepositoryGone extends DomainError {
  constructor() {
    super('not_found', 'repository does not exist', 'repo_not_found');
  }
}

/** git was not run because the gRPC caller stopped waiting (it got `unavailable` already). */
export class GitAbandoned extends DomainError {
  constructor() {
    super('unavailable', 'git skipped: the caller stopped waiting', 'caller_gone');
  }
}

/**
 * Runs git to completion, collecting stdout as bytes (blobs and raw objects are not always
 * UTF-8, and object sizes count bytes); a non-zero exit throws GitError with stderr. It
 * waits for one of its caller's git process slots (process-slots.ts), and git is killed
 * after `timeoutMs` or as soon as the gRPC caller stopped waiting, whichever comes first.
 */
export function runGitBytes(command: GitCommand, options: RunOptions = {}): Promise<Buffer> {
  const signal = currentCallSignal();
  return slots.run(callerKey(), () => runToEnd(command, options, signal));
}

function runToEnd(command: GitCommand, options: RunOptions, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new GitAbandoned());
    const child = spawnGit(command);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, options.timeoutMs ?? 60_000);
    signal?.addEventListener('abort', kill, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
    };
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('close', (code) => {
      done();
      if (code === 0 || (code !== null && options.answerExitCodes?.includes(code))) return resolve(Buffer.concat(out));
      const stderr = Buffer.concat(err).toString('utf8');
      if (command.args.some((a) => a.startsWith('--git-dir=')) && stderr.startsWith('fatal: not a git repository')) return reject(new RepositoryGone());
      reject(new GitError(command.args, code, stderr));
    });
    child.stdin!.on('error', () => {}); // git may exit before reading all of stdin
    child.stdin!.end(options.stdin ?? '');
  });
}

/** runGitBytes for text output. */
export async function runGit(command: GitCommand, options: RunOptions = {}): Promise<string> {
  return (await runGitBytes(command, options)).toString('utf8');
}

/** Starts git with piped stdio for streaming (smart HTTP); the caller owns the process. */
export function spawnGit(command: GitCommand): ChildProcess {
  return tracked(command, spawn('git', command.args as string[], {
    cwd: command.cwd,
    env: gitEnv(command.env),
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
  }));
}

/** Counts and times the process in the metrics (anvil_git_processes_*), by subcommand. */
function tracked(command: GitCommand, child: ChildProcess): ChildProcess {
  const { args } = command;
  let i = 0;
  while (args[i] === '-c') i += 2;
  while (args[i]?.startsWith('--')) i += 1;
  const ended = trackGitProcess(args[i] ?? 'unknown');
  child.once('close', (code, signal) => ended(code ?? signal));
  child.once('error', () => ended('spawn-error'));
  return child;
}

/**
 * Starts git with its stdout written straight into `socket` (a connected TCP socket), so
 * the bytes never pass through this process; stdin and stderr stay piped.
 *
 * The socket reaches git as fd 3 and a constant `sh` line moves it to stdout: libuv makes
 * an inherited fd 0–2 blocking, and a socket's blocking flag is shared with this process,
 * whose event loop must never block on it. Git's arguments still travel as an array
 * ("$@"); the shell parses nothing but its own fixed script. Git polls on a full socket.
 */
export function spawnGitInto(command: GitCommand, socket: Socket): ChildProcess {
  return tracked(command, spawn('/bin/sh', ['-c', 'exec "$@" >&3 3>&-', 'sh', 'git', ...command.args], {
    cwd: command.cwd,
    env: gitEnv(command.env),
    stdio: ['pipe', 'ignore', 'pipe', socket],
    shell: false,
  }));
}
