// Migrations and pull mirrors (routers/api/v1/repo/migrate.go, mirror.go): import a
// repository from another git server, and ask a pull mirror to sync now. The repository
// service checks everything (owner rights, the clone address against [migrations], mirror
// settings) and answers the new repository; this file only maps the body.
import type { repository } from '@anvil/proto';
import { created, type Reply, type Route } from '../http/route.js';
import { presentOne, repoCall, repoRef } from './repo-context.js';

/** The request waits for the clone, as Gitea's API migration does (201 with the repository once it is in). */
const MIGRATION_DEADLINE_MS = 60 * 60_000;

interface MigrateRepoOptions {
  clone_addr?: string;
  auth_username?: string;
  auth_password?: string;
  auth_token?: string;
  repo_owner?: string;
  uid?: number;
  repo_name?: string;
  mirror?: boolean;
  mirror_interval?: string;
  private?: boolean;
  description?: string;
  service?: string;
  wiki?: boolean;
  labels?: boolean;
  milestones?: boolean;
  issues?: boolean;
  pull_requests?: boolean;
  releases?: boolean;
  lfs?: boolean;
}

function migrateRequest(body: MigrateRepoOptions): repository.MigrateRepositoryRequestInput {
  return {
    clone_addr: body.clone_addr ?? '', auth_username: body.auth_username ?? '', auth_password: body.auth_password ?? '', auth_token: body.auth_token ?? '',
    repo_owner: body.repo_owner ?? '', repo_owner_id: body.uid ?? 0, repo_name: body.repo_name ?? '',
    mirror: body.mirror ?? false, mirror_interval: body.mirror_interval ?? '', private: body.private ?? false,
    description: body.description ?? '', service: body.service ?? '',
    wiki: body.wiki ?? false, labels: body.labels ?? false, milestones: body.milestones ?? false, issues: body.issues ?? false,
    pull_requests: body.pull_requests ?? false, releases: body.releases ?? false, lfs: body.lfs ?? false,
  };
}

export const repoMigrateRoutes: Route[] = [
  {
    method: 'POST', path: '/repos/migrate', operationId: 'repoMigrate', access: 'signed', scopes: ['repository'],
    statusOverrides: { repo_exists: 409, repo_limit_reached: 422 },
    async handle(ctx): Promise<Reply> {
      const access = await ctx.deps.services.migrations.MigrateRepository(migrateRequest(ctx.body as MigrateRepoOptions), { caller: ctx.caller, deadlineMs: MIGRATION_DEADLINE_MS });
      return created(presentOne(ctx, access));
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/mirror-sync', operationId: 'repoMirrorSync', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: { not_a_mirror: 400 },
    async handle(ctx): Promise<Reply> {
      await ctx.deps.services.migrations.SyncMirror(repoRef(ctx), repoCall(ctx));
      return { status: 200 };
    },
  },
];
