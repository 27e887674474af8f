// The one-file baseline for GET /api/v1/repos/{owner}/{repo}: no gateway, no services. One
// node:http process runs the single SQL statement the repository service runs for
// ResolveRepository (repository joined with its owner and the viewer's collaboration, on
// repository's own database) and answers the same JSON. The token is not looked up: the
// gateway answers from its credential cache too, so neither side pays for it per request.
// The JSON is the gateway's own reply for the benchmarked repository (BENCH_TEMPLATE) with
// every field that comes from the database filled from the row, so both sides serialize
// the same document. Env: BENCH_PORT, BENCH_DATABASE_URL, BENCH_ROOT_URL, BENCH_TEMPLATE,
// BENCH_VIEWER_ID.
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
const rootUrl = process.env.BENCH_ROOT_URL;
const template = JSON.parse(process.env.BENCH_TEMPLATE);
const viewerId = process.env.BENCH_VIEWER_ID;
const QUERY = `
  SELECT to_jsonb(r) AS repo, to_jsonb(o) AS owner, c.mode
    FROM repository r
    JOIN owner o ON o.id = r.owner_id
    LEFT JOIN collaboration c ON c.repository_id = r.id AND c.user_id = $3
   WHERE o.lower_name = $1 AND r.lower_name = $2`;

const iso = (d) => (d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '1970-01-01T00:00:00Z');

function present(r, o, mode) {
  const fullName = `${o.name}/${r.name}`;
  const owner = String(o.id) === viewerId || mode === 'admin' ? { admin: true, push: true, pull: true } : { admin: false, push: mode === 'write', pull: true };
  return {
    ...template,
    id: Number(r.id),
    owner: { ...template.owner, id: Number(o.id), login: o.name, username: o.name, full_name: o.full_name, email: o.email, is_admin: o.is_admin, restricted: o.restricted, visibility: o.visibility },
    name: r.name, full_name: fullName, description: r.description, empty: r.is_empty, private: r.is_private,
    template: r.is_template, size: Number(r.size), website: r.website, default_branch: r.default_branch,
    default_target_branch: r.default_branch, archived: r.is_archived,
    languages_url: `${rootUrl}api/v1/repos/${fullName}/languages`, html_url: `${rootUrl}${fullName}`,
    url: `${rootUrl}api/v1/repos/${fullName}`, clone_url: `${rootUrl}${fullName}.git`,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at), archived_at: iso(r.archived_at),
    permissions: owner, has_code: r.has_code, has_issues: r.has_issues, has_wiki: r.has_wiki,
    has_pull_requests: r.has_pull_requests, has_projects: r.has_projects, has_releases: r.has_releases,
    has_packages: r.has_packages, has_actions: r.has_actions, object_format_name: r.object_format_name,
  };
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const PATH = /^\/api\/v1\/repos\/([^/]+)\/([^/?]+)/;

const server = createServer(async (req, res) => {
  try {
    const [, owner, name] = PATH.exec(req.url ?? '') ?? [];
    if (!owner) return send(res, 404, { message: 'not found', url: '' });
    const { rows } = await pool.query({ name: 'resolve-repository', text: QUERY, values: [owner.toLowerCase(), name.toLowerCase(), viewerId] });
    if (!rows.length) return send(res, 404, { message: 'The target couldn\'t be found.', url: '' });
    send(res, 200, present(rows[0].repo, rows[0].owner, rows[0].mode));
  } catch (err) {
    send(res, 500, { message: String(err), url: '' });
  }
});

server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
