// The real `git` CLI (and other tools) for e2e tests, run so that it never prompts: a
// temporary HOME, no system config, GIT_TERMINAL_PROMPT=0, and a fixed identity.
import { execFile } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runIn(home: string, command: string, args: string[], cwd = home): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, {
      cwd, maxBuffer: 64 * 1024 * 1024,
      env: { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
    }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** `git` as user E2E, with `main` as the default branch of new repositories. */
export function gitIn(home: string, args: string[], cwd = home): Promise<CommandResult> {
  return runIn(home, 'git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', '-c', 'init.defaultBranch=main', ...args], cwd);
}

/** A clone URL under the gateway's root, with credentials in it as people paste them. */
export function cloneUrl(baseUrl: string, path: string, user?: string, secret?: string): string {
  const url = new URL(path, baseUrl);
  if (user) {
    url.username = encodeURIComponent(user);
    url.password = encodeURIComponent(secret ?? '');
  }
  return url.toString();
}
