// The preamble every end-to-end file shares, in one place: boot the system, the anonymous
// and admin clients, the accounts helper, and — when asked — a temporary HOME for the git
// CLI and a recorder of one context's events. A file calls it in its own beforeAll and
// calls close() in its own afterAll, so the lifecycle stays visible where the tests are.
//
//   let e2e: E2e;
//   beforeAll(async () => { e2e = await bootE2e({ prefix: 'git-user', gitHome: true, events: 'repository' }); }, 180_000);
//   afterAll(() => e2e?.close());
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accounts, type Accounts, type TestUser } from './accounts.js';
import { ApiClient } from './api-client.js';
import { recordEvents, type EventRecorder } from './event-recorder.js';
import { sharedSystem } from './shared-system.js';
import { bootSystem, type BootOptions, type RunningSystem } from './system.js';

export interface E2eOptions {
  /**
   * Use this jest worker's shared system instead of booting one (shared-system.ts says
   * which files may); takes none of env, deployableEnv, onOutput.
   */
  shared?: boolean;
  /** Prefix of the usernames `users` makes (see accounts.unique). */
  prefix?: string;
  /** Extra environment for every deployable, as bootSystem takes it. */
  env?: Record<string, string>;
  /** Extra environment for one deployable only, as bootSystem takes it. */
  deployableEnv?: BootOptions['deployableEnv'];
  /** Record the events this context publishes, e.g. `repository`. */
  events?: string;
  /** Make a temporary HOME for the git CLI (git-cli.ts runs git with it). */
  gitHome?: boolean;
  /** Hears every line the deployables print (bootSystem's onOutput). */
  onOutput?: (text: string) => void;
}

/** A user known to the repository service, with a personal access token. */
export type Writer = TestUser & { token: string };

export interface E2e {
  system: RunningSystem;
  anonymous: ApiClient;
  /** The site admin, signed in with its password. */
  admin: ApiClient;
  users: Accounts;
  /** The git CLI's HOME; only with `gitHome: true`. */
  readonly home: string;
  /** Only with `events`. */
  readonly recorder: EventRecorder;
  /**
   * A fresh user (with `fields` on top of the defaults) and a token with `scopes`, by
   * default a token that may write repositories: what git suites push with.
   */
  newWriter(options?: { fields?: Record<string, unknown>; scopes?: string[] }): Promise<Writer>;
  /** Undoes everything bootE2e did, in reverse order; safe to call twice. */
  close(): Promise<void>;
}

function sharedSystemFor(options: E2eOptions): Promise<RunningSystem> {
  if (options.env || options.deployableEnv || options.onOutput) throw new Error('a shared system takes no env, deployableEnv or onOutput: boot one of your own');
  return sharedSystem();
}

export async function bootE2e(options: E2eOptions = {}): Promise<E2e> {
  // What to undo, latest last; run backwards by close() or when boot fails half way.
  const undo: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const system = options.shared ? await sharedSystemFor(options) : await bootSystem({ env: options.env, deployableEnv: options.deployableEnv, onOutput: options.onOutput });
    undo.push(() => system.shutdown());
    // A shared system's crash would otherwise go unseen: the file that saw it fails.
    if (options.shared) {
      undo.push(async () => {
        if (system.crashes.length) throw new Error(`the shared system lost ${system.crashes.map((exit) => exit.name).join(', ')}`);
      });
    }
    const anonymous = new ApiClient(system.baseUrl);
    const admin = anonymous.as({ basic: [system.admin.username, system.admin.password] });
    const users = accounts(admin, options.prefix ?? 'e2e-user');

    let home: string | undefined;
    if (options.gitHome) {
      const dir = await mkdtemp(join(tmpdir(), 'anvil-e2e-home-'));
      home = dir;
      undo.push(() => rm(dir, { recursive: true, force: true }));
    }
    let recorder: EventRecorder | undefined;
    if (options.events) {
      const opened = await recordEvents(system, options.events);
      recorder = opened;
      undo.push(() => opened.close());
    }

    return {
      system,
      anonymous,
      admin,
      users,
      get home() {
        if (home === undefined) throw new Error('bootE2e was not asked for a git home (gitHome: true)');
        return home;
      },
      get recorder() {
        if (recorder === undefined) throw new Error('bootE2e was not asked to record events (events: \'<context>\')');
        return recorder;
      },
      async newWriter({ fields = {}, scopes = ['write:repository'] } = {}) {
        const user = await users.newUser(fields);
        return { ...user, token: await users.newToken(user, scopes) };
      },
      close,
    };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
