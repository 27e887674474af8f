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
// Credentials never appear in a command line, a log line or a file in clear: git gets them
// as an `http.extraHeader` through its environment (GIT_CONFIG_COUNT/KEY/VALUE), the
// repository's config keeps the remote's address without them and the credentials sealed
// beside it (credential-seal.ts), and every message is scrubbed of them. git is always given
// the remote's URL (never a configured remote name), so what it connects to is what was
// checked.
//
// A migration clones (`git clone --bare`, as Gitea clones with --mirror) rather than fetching
// into an empty repository: a clone trusts a self-contained pack without walking every
// object again for connectivity, which a fetch does, and learns the remote's HEAD in the
// same connection.
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { simpleGit, type SimpleGit, type SimpleGitProgressEvent } from 'simple-git';
import type { Logger } from '@anvil/kit';
import { parseRemoteAddress, scrubSecrets, type RemoteAddress } from '../domain/remote-address.js';
import { git as gitCommand, runGit } from './command.js';
import type { CredentialSeal } from './credential-seal.js';
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
// simple-git's environment guard refuses GIT_* variables unless named: the first three only
// take abilities away from git (prompts, system config, protocols); the GIT_CONFIG_* ones
// carry the one setting with the credentials (credentialEnv), and nothing else.
const ADMITTED_ENV = ['GIT_TERMINAL_PROMPT', 'GIT_CONFIG_NOSYSTEM', 'GIT_ALLOW_PROTOCOL', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'];

const REFSPECS = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];

/** The URL git is given: no credentials; for git://, the checked address itself. */
function urlFor(address: RemoteAddress, checked: CheckedRemote): string {
  if (address.kind === 'local') return address.path;
  const url = new URL(address.safeUrl);
  if (address.protocol === 'git') url.hostname = checked.address.includes(':') ? `[${checked.address}]` : checked.address;
  return url.toString();
}

/** The credentials as an Authorization header, set through git's environment. */
function credentialEnv(address: RemoteAddress): Record<string, string> {
  if (address.kind !== 'url' || !address.credentials) return {};
  const basic = Buffer.from(`${address.credentials.username}:${address.credentials.password}`).toString('base64');
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` };
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

function gitIn(gitDir: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): SimpleGit {
  const config = confinement(address, checked);
  const protocol = address.kind === 'local' ? 'file' : address.protocol;
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
  // allowUnsafeConfigEnvCount admits GIT_CONFIG_COUNT, which only credentialEnv sets (one
  // fixed key, http.extraHeader, whose value is base64): simple-git still vets the settings
  // it carries like any other, and every other protection stays on.
  const unsafe = address.kind === 'url' && address.credentials ? { allowUnsafeConfigEnvCount: true } : {};
  return simpleGit({ baseDir: gitDir, config, progress, timeout: { block: options.stallTimeoutMs }, allowEnvironment: ADMITTED_ENV, unsafe })
    .env({
      // A HOME without a .gitconfig stands for GIT_CONFIG_GLOBAL=/dev/null, which simple-git refuses.
      PATH: process.env.PATH ?? '', HOME: NO_HOME, XDG_CONFIG_HOME: NO_HOME, LANG: 'C', LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_ALLOW_PROTOCOL: protocol, ...credentialEnv(address),
    });
}

function failure(err: unknown, address: RemoteAddress): RemoteFetchFailed {
  const message = scrubSecrets((err as Error).message ?? String(err), address.secrets);
  // git's own last lines say why; "Cloning into <staging id>" says nothing to the user.
  return new RemoteFetchFailed(message.trim().split('\n').filter((line) => line && !line.startsWith('Cloning into')).slice(-3).join(' '));
}

const REMOTE_NAME = /^(origin|remote_mirror_[0-9a-f]+)$/;

/**
 * Records a remote in the bare repository's config file: its address without credentials
 * (for git://, the host name as written: each use pins it anew) and, beside it, the
 * credentials sealed. `remoteName` is one this service made (origin, remote_mirror_<hex>).
 */
export async function writeRemote(gitDir: string, remoteName: string, address: RemoteAddress, seal: CredentialSeal, options: { mirror?: boolean } = {}): Promise<void> {
  if (!REMOTE_NAME.test(remoteName)) throw new Error(`not a remote name of this service: ${remoteName}`);
  // A URL's serialization leaves no quote, backslash or newline, so the value needs no escaping.
  const lines = [`[remote "${remoteName}"]`, `\turl = ${address.safeUrl}`];
  if (options.mirror) lines.push(...REFSPECS.map((r) => `\tfetch = ${r}`), '\tmirror = true');
  if (address.kind === 'url' && address.credentials) lines.push(`[anvil "${remoteName}"]`, `\tsealedcredentials = ${seal.seal(address.credentials)}`);
  await appendFile(join(gitDir, 'config'), `${lines.join('\n')}\n`);
}

/**
 * The address of a remote recorded by writeRemote, with its credentials opened. A remote
 * written before credentials were sealed has them in its URL, which parses the same way.
 */
export async function readRemote(gitDir: string, remoteName: string, seal: CredentialSeal): Promise<RemoteAddress> {
  if (!REMOTE_NAME.test(remoteName)) throw new Error(`not a remote name of this service: ${remoteName}`);
  const out = await runGit(gitCommand('config', { gitDir }).flag('--get-regexp').arg(`^(remote|anvil)\\.${remoteName}\\.(url|sealedcredentials)$`).build());
  let url = '';
  let sealed = '';
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    if (line.startsWith('remote.')) url = line.slice(space + 1);
    else sealed = line.slice(space + 1);
  }
  const credentials = sealed ? seal.open(sealed) : undefined;
  // Anyone may have made the remote; it is checked as a non-admin's would be.
  return parseRemoteAddress(url, credentials ?? {}, { isAdmin: false }, { importLocalPaths: false, allowedLocalRoot: '' });
}

/** Drops a remote and its sealed credentials. */
export async function removeRemote(gitDir: string, remoteName: string): Promise<void> {
  if (!REMOTE_NAME.test(remoteName)) throw new Error(`not a remote name of this service: ${remoteName}`);
  for (const section of [`remote.${remoteName}`, `anvil.${remoteName}`]) {
    await runGit(gitCommand('config', { gitDir }).flag('--remove-section').arg(section).build()).catch(() => undefined);
  }
}

/** Pushes branches and tags to `address` (force, pruning what is gone here), pinned as a fetch is. */
export async function pushTo(gitDir: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): Promise<void> {
  try {
    await gitIn(gitDir, address, checked, options).raw(['push', '--force', '--prune', '--porcelain', urlFor(address, checked), ...REFSPECS]);
  } catch (err) {
    throw failure(err, address);
  }
}

/**
 * Clones `address` (branches and tags) into `target`, an empty directory, as a bare
 * repository without any remote; answers the remote's default branch when it has one.
 */
export async function cloneBare(target: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): Promise<{ head?: string }> {
  try {
    await gitIn(dirname(target), address, checked, options).clone(urlFor(address, checked), basename(target), ['--bare']);
  } catch (err) {
    throw failure(err, address);
  }
  // The clone named its source `origin`; a mirror records it anew (writeRemote), without the pinned address.
  await dropCloneOrigin(target);
  const head = /^ref: refs\/heads\/(\S+)\s*$/.exec(await readFile(join(target, 'HEAD'), 'utf8'))?.[1];
  return { head };
}

/**
 * Drops the `[remote "origin"]` section from the config file git clone has just written
 * (its own file, in its own layout): the same as `git config --remove-section`, without a
 * process in the middle of a migration.
 */
async function dropCloneOrigin(gitDir: string): Promise<void> {
  const path = join(gitDir, 'config');
  let inOrigin = false;
  const kept = (await readFile(path, 'utf8')).split('\n').filter((line) => {
    if (/^\s*\[/.test(line)) inOrigin = /^\s*\[remote "origin"\]\s*$/.test(line);
    return !inOrigin && line !== '';
  });
  // Every line ends with a newline, the last too: a section appended later (writeRemote) starts on its own line.
  await writeFile(path, kept.map((line) => `${line}\n`).join(''));
}

/** Fetches `address`'s branches and tags into `gitDir`, pruning what the remote deleted. */
export async function fetchFrom(gitDir: string, address: RemoteAddress, checked: CheckedRemote, options: FetchOptions): Promise<void> {
  try {
    await gitIn(gitDir, address, checked, options).fetch(['--prune', '--no-auto-gc', '--progress', urlFor(address, checked), ...REFSPECS]);
  } catch (err) {
    throw failure(err, address);
  }
}

/** Clears a stale `FETCH_HEAD`, which would name the remote's URL. */
export async function forgetFetchHead(gitDir: string): Promise<void> {
  await rm(join(gitDir, 'FETCH_HEAD'), { force: true });
}
