// Fetching from other git servers, for migrations and pull mirrors, through simple-git (the
// design card's git library) with its unsafe-option protections left on. Plumbing on our
// own repositories stays in command.ts; both run git with no system or global config and no
// prompts, and no request value ever reaches git where it reads an option.
//
// How the outbound guard holds for the connections git itself makes:
// - The host is resolved and every address checked against [migrations] (remote-guard.ts)
//   before git runs. For http(s), git is pinned to the checked address with
//   `http.curloptResolve=<host>:<port>:<address>`, so curl never resolves the name again
//   (no DNS-rebinding gap) while TLS and the Host header still see the real name. For
//   git://, which has no such option, the URL names the checked address itself.
// - `http.followRedirects=false`: a redirect is refused outright. "initial" would let the
//   first request redirect to any host, and a redirected host is resolved by curl itself,
//   outside the check and the pin. Servers that move repositories answer with a redirect
//   and the migration fails with a clear 422 naming it; the user gives the new address.
// - Only the one protocol of the address is allowed (GIT_ALLOW_PROTOCOL; simple-git refuses
//   `protocol.*.allow` settings outright), so a server cannot bounce git to file:// or ext::.
//
// Credentials never appear in a command line or a log line: the remote with its
// credentials is written straight into the repository's own config file (as Gitea keeps a
// mirror's remote), and every message is scrubbed of them.
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit, type SimpleGit, type SimpleGitProgressEvent } from 'simple-git';
import type { Logger } from '@anvil/kit';
import { scrubSecrets, type RemoteAddress } from '../domain/remote-address.js';
import type { CheckedRemote } from './remote-guard.js';

export interface FetchOptions {
  /** Stop git when it printed nothing for this long. */
  stallTimeoutMs: number;
  log: Logger;
  /** What the log lines name (owner/name, or "migration"). */
  label: string;
  /** Hears each progress line logged ("receiving 50%"), and one at least every 10 s while git reports. */
  onProgress?: (line: string) => void;
}

const PROGRESS_HEARTBEAT_MS = 10_000;

/** A fetch that failed; the message names no credential. */
export class RemoteFetchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteFetchFailed';
  }
}

// heads and tags only: refs/pull/* and Anvil's own refs are this server's to write.
const NO_HOME = '/nonexistent/anvil-git-home';
// simple-git's environment guard refuses GIT_* variables unless named: these three only
// take abilities away from git (prompts, system config, protocols).
const RESTRICTING_ENV = ['GIT_TERMINAL_PROMPT', 'GIT_CONFIG_NOSYSTEM', 'GIT_ALLOW_PROTOCOL'];

const REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

function urlFor(address: RemoteAddress, checked: CheckedRemote): string {
  if (address.kind === 'local') return address.path;
  const url = new URL(address.safeUrl);
  if (address.protocol === 'git') url.hostname = checked.address.includes(':') ? `[${checked.address}]` : checked.address;
  if (address.credentials) {
    url.username = encodeURIComponent(address.credentials.username);
    url.password = encodeURIComponent(address.credentials.password);
  }
  return url.toString();
}

/** `-c` settings that confine git to the checked remote (see the file comment). */
function confinement(address: RemoteAddress, checked: CheckedRemote): string[] {
  if (address.kind === 'local') return [];
  const config = ['http.followRedirects=false'];
  if (address.protocol !== 'git') {
    const pinned = checked.address.includes(':') ? `[${checked.address}]` : checked.address;
    config.push(`http.curloptResolve=${address.host}:${address.port}:${pinned}`);
  }
  return config;
}

function gitIn(gitDir: string, config: string[], protocol: string, options: FetchOptions): SimpleGit {
  let lastLogged = '';
  let lastReported = 0;
  const progress = ({ method, stage, progress: percent }: SimpleGitProgressEvent) => {
    // One line per stage and every 25%: enough to follow a long clone without flooding.
    const step = `${stage}:${Math.floor(percent / 25)}`;
    const now = Date.now();
    if (step !== lastLogged) {
      lastLogged = step;
      options.log.info({ repository: options.label, method, stage, percent }, 'fetching from remote');
    } else if (now - lastReported < PROGRESS_HEARTBEAT_MS) {
      return;
    }
    lastReported = now;
    options.onProgress?.(`${stage} ${percent}%`);
  };
  return simpleGit({ baseDir: gitDir, config, progress, timeout: { block: options.stallTimeoutMs }, allowEnvironment: RESTRICTING_ENV })
    .env({
      // A HOME without a .gitconfig stands for GIT_CONFIG_GLOBAL=/dev/null, which simple-git refuses.
      PATH: process.env.PATH ?? '', HOME: NO_HOME, XDG_CONFIG_HOME: NO_HOME, LANG: 'C', LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_ALLOW_PROTOCOL: protocol,
    });
}

/** Writes `origin` (with its credentials) into the bare repository's config file. */
export async function writeOrigin(gitDir: string, address: RemoteAddress, checked: CheckedRemote, mirror: boolean): Promise<void> {
  // encodeURIComponent leaves no quote, backslash or newline, so the value needs no escaping.
  const lines = ['[remote "origin"]', `\turl = ${urlFor(address, checked)}`, ...REFSPECS.map((r) => `\tfetch = ${r}`)];
  if (mirror) lines.push('\tmirror = true');
  await appendFile(join(gitDir, 'config'), `${lines.join('\n')}\n`);
}

/** Writes a push remote (with its credentials) named `remoteName`, a name this service made. */
export async function writePushRemote(gitDir: string, remoteName: string, address: RemoteAddress): Promise<void> {
  if (!/^remote_mirror_[0-9a-f]+$/.test(remoteName)) throw new Error(`not a push-mirror remote name: ${remoteName}`);
  // git:// keeps its host name here; each push pins it anew (pushTo).
  const lines = [`[remote "${remoteName}"]`, `\turl = ${urlFor(address, { address: address.kind === 'url' ? address.host : '' })}`];
  await appendFile(join(gitDir, 'config'), `${lines.join('\n')}\n`);
}

/** Drops a push remote. */
export async function removeRemote(gitDir: string, remoteName: string): Promise<void> {
  if (!/^remote_mirror_[0-9a-f]+$/.test(remoteName)) throw new Error(`not a push-mirror remote name: ${remoteName}`);
  await simpleGit({ baseDir: gitDir, allowEnvironment: RESTRICTING_ENV }).env({ PATH: process.env.PATH ?? '', HOME: NO_HOME, XDG_CONFIG_HOME: NO_HOME, GIT_CONFIG_NOSYSTEM: '1' }).raw(['remote', 'remove', remoteName]);
}

/** Pushes branches and tags to `remoteName` (force, pruning what is gone here), pinned as a fetch is. */
export async function pushTo(gitDir: string, remoteName: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): Promise<void> {
  const config = confinement(address, checked);
  // For git:// the remote's configured URL names the host; push to the checked address instead.
  const target = address.kind === 'url' && address.protocol === 'git' ? urlFor(address, checked) : remoteName;
  const git = gitIn(gitDir, config, address.kind === 'local' ? 'file' : address.protocol, options);
  try {
    await git.raw(['push', '--force', '--prune', '--porcelain', target, ...REFSPECS]);
  } catch (err) {
    const message = scrubSecrets((err as Error).message ?? String(err), address.secrets);
    throw new RemoteFetchFailed(message.trim().split('\n').filter(Boolean).slice(-3).join(' '));
  }
}

/** Drops `origin` again (a one-time migration keeps no remote). */
export async function removeOrigin(gitDir: string): Promise<void> {
  await simpleGit({ baseDir: gitDir, allowEnvironment: RESTRICTING_ENV }).env({ PATH: process.env.PATH ?? '', HOME: NO_HOME, XDG_CONFIG_HOME: NO_HOME, GIT_CONFIG_NOSYSTEM: '1' }).raw(['remote', 'remove', 'origin']);
}

/**
 * Fetches `origin`'s branches and tags into `gitDir` (pruning what the remote deleted) and
 * answers the remote's default branch, when it has one.
 */
export async function fetchOrigin(gitDir: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): Promise<{ head?: string }> {
  const git = gitIn(gitDir, confinement(address, checked), address.kind === 'local' ? 'file' : address.protocol, options);
  try {
    await git.fetch(['--prune', '--no-auto-gc', '--progress', 'origin']);
    const symref = await git.listRemote(['--symref', 'origin', 'HEAD']);
    const head = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(symref)?.[1];
    return { head };
  } catch (err) {
    const message = scrubSecrets((err as Error).message ?? String(err), address.secrets);
    throw new RemoteFetchFailed(message.trim().split('\n').filter(Boolean).slice(-3).join(' '));
  }
}

/** Clears a stale `FETCH_HEAD`, which would name the remote's URL. */
export async function forgetFetchHead(gitDir: string): Promise<void> {
  await rm(join(gitDir, 'FETCH_HEAD'), { force: true });
}
