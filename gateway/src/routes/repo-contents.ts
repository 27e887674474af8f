// The contents API (routers/api/v1/repo/file.go): read a file or directory at a ref, and
// create, update, delete or change several files in one commit. File paths contain `/`, so
// the single-path routes take the rest of the URL.
import { DomainError, invalid } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { created, ok, type Route, type RouteContext } from '../http/route.js';
import { presentContent, presentContentExt, presentFileResponse, presentFilesResponse } from '@anvil/presenters/contents.js';
import { refWrite, repoCall, repoRef, repoUrlsOf } from './repo-context.js';

/** Where a write fails as Gitea answers: an archived repository is 423 Locked. */
const WRITE_STATUSES = { repo_archived: 423 };

const refQuery = (ctx: RouteContext) => (typeof ctx.query.ref === 'string' ? ctx.query.ref.trim() : '');
/**
 * Go's base64.StdEncoding.DecodeString, which Gitea uses: padding required, line breaks
 * ignored, anything else outside the alphabet is a 422 naming the byte.
 */
export function decodeBase64(value: string): Buffer {
  const text = value.replace(/[\r\n]/g, '');
  const bad = text.search(/[^A-Za-z0-9+/=]/);
  const padding = text.indexOf('=');
  if (bad >= 0) throw invalid(`illegal base64 data at input byte ${bad}`);
  if (text.length % 4 !== 0 || (padding >= 0 && padding < text.length - 2) || (padding >= 0 && /[^=]/.test(text.slice(padding)))) {
    throw invalid(`illegal base64 data at input byte ${padding >= 0 ? padding : text.length - (text.length % 4)}`);
  }
  return Buffer.from(text, 'base64');
}

interface FileOptions {
  branch?: string;
  new_branch?: string;
  message?: string;
  author?: { name?: string; email?: string };
  committer?: { name?: string; email?: string };
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
  force_push?: boolean;
}

/** Go's zero time, what a Go client sends for a date it leaves unset. */
const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * A commit date of `dates` (already an RFC 3339 date-time: the request's schema checked it).
 * Gitea takes the zero time as "now", as an unset date; git stores no time before 1970.
 */
function dateOf(value: string | undefined, field: string) {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (ms === GO_ZERO_TIME_MS) return undefined;
  if (!(ms >= 0)) throw invalid(`[${field}]: a commit date cannot be before 1970-01-01T00:00:00Z`, 'invalid_date');
  return { seconds: Math.floor(ms / 1000), nanos: 0 };
}

function changeRequest(ctx: RouteContext, body: FileOptions, files: repository.FileOperationInput[]): repository.ChangeFilesRequestInput {
  return {
    ref: repoRef(ctx), branch: body.branch ?? '', new_branch: body.new_branch ?? '', message: body.message ?? '',
    author: { name: body.author?.name ?? '', email: body.author?.email ?? '' },
    committer: { name: body.committer?.name ?? '', email: body.committer?.email ?? '' },
    author_date: dateOf(body.dates?.author, 'dates.author'), committer_date: dateOf(body.dates?.committer, 'dates.committer'),
    signoff: body.signoff ?? false, force_push: body.force_push ?? false, files,
  };
}

async function readContents(ctx: RouteContext, path: string, ext?: { content: boolean; commit: boolean; message: boolean }) {
  return ctx.deps.services.contents.GetContents({
    ref: repoRef(ctx), path, revision: refQuery(ctx),
    include_content: ext ? ext.content : true, include_commit: ext ? ext.commit : true, include_commit_message: ext?.message ?? false,
  }, repoCall(ctx));
}

async function getContents(ctx: RouteContext, path: string) {
  const reply = await readContents(ctx, path);
  const urls = repoUrlsOf(ctx);
  return ok(reply.is_dir ? reply.entries.map((e) => presentContent(e, reply.at!, urls)) : presentContent(reply.file!, reply.at!, urls));
}

const INCLUDES = new Set(['file_content', 'lfs_metadata', 'commit_metadata', 'commit_message']);

/** GET /contents-ext: only what `includes` asks for; exactly one of file_contents / dir_contents. */
async function getContentsExt(ctx: RouteContext, rawPath: string) {
  const includes = String(ctx.query.includes ?? '').split(',').filter(Boolean);
  const unknown = includes.find((i) => !INCLUDES.has(i));
  if (unknown) throw new DomainError('bad_request', `unknown include option "${unknown}"`, 'unknown_include');
  const path = rawPath === '.' ? '' : rawPath;
  const message = includes.includes('commit_message');
  const withMeta = includes.includes('commit_metadata');
  const reply = await readContents(ctx, path, { content: includes.includes('file_content'), commit: withMeta || message, message });
  const urls = repoUrlsOf(ctx);
  const present = (e: repository.ContentEntry) => {
    const shown = presentContentExt(e, reply.at!, urls, message);
    if (withMeta) return shown;
    // commit_message alone adds the message, not the sha and dates.
    const { last_commit_sha: _s, last_committer_date: _c, last_author_date: _a, ...rest } = shown;
    return rest;
  };
  return ok(reply.is_dir ? { dir_contents: reply.entries.map(present) } : { file_contents: present(reply.file!) });
}

export const repoContentRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/contents', operationId: 'repoGetContentsList', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => getContents(ctx, ''),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/contents/*filepath', operationId: 'repoGetContents', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => getContents(ctx, ctx.splat('filepath')),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/contents-ext/*filepath', operationId: 'repoGetContentsExt', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => getContentsExt(ctx, ctx.splat('filepath')),
  },
  {
    // `contents-ext/.` (the root, as Gitea's document suggests) arrives as `contents-ext/`
    // once an HTTP client removes the dot segment.
    method: 'GET', path: '/repos/:owner/:repo/contents-ext', operationId: 'repoGetContentsExt', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => getContentsExt(ctx, ''),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/file-contents', operationId: 'repoGetFileContents', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      let paths: string[] = [];
      try {
        const parsed = JSON.parse(String(ctx.query.body ?? '')) as { files?: unknown };
        paths = Array.isArray(parsed.files) ? parsed.files.map(String) : [];
      } catch {
        throw invalid('[body]: invalid JSON');
      }
      return fileContents(ctx, paths);
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/file-contents', operationId: 'repoGetFileContentsPost', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => fileContents(ctx, ((ctx.body as { files?: string[] }).files ?? []).map(String)),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/contents', operationId: 'repoChangeFiles', access: 'signed', scopes: ['repository'], fileBody: true,
    repoAccess: 'read',
    resolvedInTurn: true,
    statusOverrides: WRITE_STATUSES,
    async handle(ctx) {
      const body = ctx.body as FileOptions & { files: Array<{ operation: string; path: string; from_path?: string; content?: string; sha?: string }> };
      const files = body.files.map((f) => ({
        operation: f.operation, path: f.path, from_path: f.from_path ?? '', sha: f.sha ?? '',
        has_content: f.content !== undefined && f.operation !== 'delete', content: f.content && f.operation !== 'delete' ? decodeBase64(f.content) : Buffer.alloc(0),
      }));
      const reply = await ctx.deps.services.contents.ChangeFiles(changeRequest(ctx, body, files), refWrite(ctx));
      return created(presentFilesResponse(reply, repoUrlsOf(ctx)));
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/contents/*filepath', operationId: 'repoCreateFile', access: 'signed', scopes: ['repository'], fileBody: true,
    repoAccess: 'read',
    resolvedInTurn: true,
    statusOverrides: WRITE_STATUSES,
    async handle(ctx) {
      const body = ctx.body as FileOptions & { content: string };
      const file = { operation: 'create', path: ctx.splat('filepath'), from_path: '', sha: '', has_content: true, content: decodeBase64(body.content ?? '') };
      const reply = await ctx.deps.services.contents.ChangeFiles(changeRequest(ctx, body, [file]), refWrite(ctx));
      return created(presentFileResponse(reply, repoUrlsOf(ctx)));
    },
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/contents/*filepath', operationId: 'repoUpdateFile', access: 'signed', scopes: ['repository'], fileBody: true,
    repoAccess: 'read',
    resolvedInTurn: true,
    statusOverrides: WRITE_STATUSES,
    async handle(ctx) {
      const body = ctx.body as FileOptions & { content: string; sha?: string; from_path?: string };
      const file = { operation: 'update', path: ctx.splat('filepath'), from_path: body.from_path ?? '', sha: body.sha ?? '', has_content: true, content: decodeBase64(body.content ?? '') };
      const reply = await ctx.deps.services.contents.ChangeFiles(changeRequest(ctx, body, [file]), refWrite(ctx));
      return ok(presentFileResponse(reply, repoUrlsOf(ctx)));
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/contents/*filepath', operationId: 'repoDeleteFile', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    resolvedInTurn: true,
    statusOverrides: WRITE_STATUSES,
    async handle(ctx) {
      const body = ctx.body as FileOptions & { sha: string };
      const file = { operation: 'delete', path: ctx.splat('filepath'), from_path: '', sha: body.sha ?? '', has_content: false, content: Buffer.alloc(0) };
      const reply = await ctx.deps.services.contents.ChangeFiles(changeRequest(ctx, body, [file]), refWrite(ctx));
      return ok(presentFileResponse(reply, repoUrlsOf(ctx)));
    },
  },
];

async function fileContents(ctx: RouteContext, paths: string[]) {
  const reply = await ctx.deps.services.contents.GetFileContents({ ref: repoRef(ctx), revision: refQuery(ctx), paths }, repoCall(ctx));
  const urls = repoUrlsOf(ctx);
  return ok(reply.entries.map((e) => presentContent(e, reply.at!, urls)));
}
