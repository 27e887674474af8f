// Static checks of deploy/docker (no Docker engine runs here): the Dockerfile has a stage
// for every target the README names, each image is non-root with tini as PID 1, git is in
// the repository image only, and the ignore file keeps what a frozen install needs.
import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { deployDir, repoRoot } from './support/kubernetes.js';
import { baseImage, dockerignore, effective, instructionsInChain, parseDockerfile } from './support/docker.js';

const dockerDir = join(deployDir, 'docker');
const dockerfile = parseDockerfile(readFileSync(join(dockerDir, 'Dockerfile'), 'utf8'));
const readme = readFileSync(join(deployDir, 'README.md'), 'utf8');
const TARGETS = ['gateway', 'identity', 'repository', 'collaboration', 'hooks'];
const stageNames = dockerfile.stages.map((s) => s.name);

describe('deploy/docker/Dockerfile', () => {
  it('has a stage for every --target the README names, and one per deployable', () => {
    const named = [...readme.matchAll(/--target[ =]([a-z][\w-]*)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const target of new Set([...named, ...TARGETS])) expect([target, stageNames.includes(target)]).toEqual([target, true]);
  });

  it('builds every image on node:20-bookworm-slim', () => {
    for (const target of TARGETS) expect([target, baseImage(dockerfile, target)]).toEqual([target, 'node:20-bookworm-slim']);
    for (const stage of dockerfile.stages) expect(stage.from).not.toMatch(/:latest$/);
  });

  it('runs every image as a numeric non-root user', () => {
    for (const target of TARGETS) {
      const user = effective(dockerfile, target, 'USER');
      expect([target, user]).toEqual([target, expect.stringMatching(/^[1-9]\d*(:[1-9]\d*)?$/)]);
    }
  });

  it('starts node under tini, so SIGTERM reaches it and children are reaped', () => {
    for (const target of TARGETS) {
      expect([target, effective(dockerfile, target, 'ENTRYPOINT')]).toEqual([target, '["/usr/bin/tini", "--"]']);
      // With the V8 flags `anvil start` uses (cli/src/processes.ts deployableNodeFlags).
      const flags = target === 'gateway' ? '"--max-semi-space-size=2"' : '"--max-semi-space-size=2", "--liftoff-only"';
      expect([target, effective(dockerfile, target, 'CMD')]).toEqual([target, `["node", ${flags}, "dist/main.js"]`]);
      const installs = instructionsInChain(dockerfile, target, 'RUN').join('\n');
      expect(installs).toMatch(/apt-get install[^\n]*\btini\b/);
    }
  });

  it('installs git in the repository image only', () => {
    for (const target of TARGETS) {
      const installsGit = instructionsInChain(dockerfile, target, 'RUN').some((r) => /apt-get install[^&]*\bgit\b/.test(r));
      expect([target, installsGit]).toEqual([target, target === 'repository']);
    }
  });

  it('copies each image\'s pruned `pnpm deploy --prod` output from the one build stage', () => {
    const build = dockerfile.stages.find((s) => s.name === 'build')!;
    const runs = build.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    expect(runs).toMatch(/pnpm install --frozen-lockfile/);
    expect(runs).toMatch(/pnpm deploy --filter "@anvil\/\$\{name\}" --prod/);
    for (const target of TARGETS) {
      expect(runs).toMatch(new RegExp(`for name in [^;]*\\b${target}\\b`));
      const copies = instructionsInChain(dockerfile, target, 'COPY');
      expect(copies).toContain(`--from=build /out/${target} /app`);
    }
  });

  it('declares no HEALTHCHECK (Kubernetes probes check health)', () => {
    expect(dockerfile.stages.flatMap((s) => s.instructions).filter((i) => i.keyword === 'HEALTHCHECK')).toEqual([]);
  });
});

describe('deploy/docker/Dockerfile.dockerignore', () => {
  const ignored = dockerignore(readFileSync(join(dockerDir, 'Dockerfile.dockerignore'), 'utf8'));
  const workspace = parse(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')).packages as string[];
  const packageDirs = workspace.flatMap((glob) => glob.endsWith('/*')
    ? readdirSync(join(repoRoot, glob.slice(0, -2)), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${glob.slice(0, -2)}/${e.name}`)
    : [glob]).filter((dir) => existsSync(join(repoRoot, dir, 'package.json')));

  it('keeps every workspace manifest and the lockfile, which a frozen install checks', () => {
    expect(packageDirs.length).toBeGreaterThan(4);
    for (const path of ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'tsconfig.base.json', ...packageDirs.map((d) => `${d}/package.json`)]) {
      expect([path, ignored(path)]).toEqual([path, false]);
    }
  });

  it('keeps every file the Dockerfile copies from the context', () => {
    for (const stage of dockerfile.stages) {
      for (const copy of stage.instructions.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))) {
        const sources = copy.args.split(/\s+/).filter((a) => !a.startsWith('--')).slice(0, -1);
        for (const source of sources.filter((s) => s !== '.')) {
          expect([source, existsSync(join(repoRoot, source)), ignored(source)]).toEqual([source, true, false]);
        }
      }
    }
  });

  it('keeps the sources the deployables build from', () => {
    for (const path of ['gateway/src/main.ts', 'services/kit/src/index.ts', 'services/kit/bin/prisma.mjs', 'services/repository/prisma/schema.prisma',
      'services/repository/prisma/migrations/x/migration.sql', 'proto/anvil/identity/v1/identity.proto', 'proto/scripts/gen-types.mjs', 'gateway/tsconfig.json',
      'gateway/contract/gitea-1.27.1.swagger.v1.json']) {
      expect([path, ignored(path)]).toEqual([path, false]);
    }
  });

  it('leaves out host builds, dependencies, generated code, VCS data and the deploy folder', () => {
    for (const path of ['node_modules/x/index.js', 'gateway/node_modules/express/index.js', 'gateway/dist/main.js', 'services/kit/tsconfig.tsbuildinfo',
      'services/repository/src/store/generated/client.ts', 'proto/src/generated/x.ts', '.git/HEAD', 'deploy/kubernetes/gateway.yaml',
      'test/e2e/x.e2e.test.ts', 'gateway/test/x.test.ts', 'services/kit/test/db/migrate.int.test.ts', 'data/postgres/PG_VERSION', '.env']) {
      expect([path, ignored(path)]).toEqual([path, true]);
    }
  });
});
