// The one-file baseline of `pnpm bench`: what GET /api/v1/user costs with no gateway and
// no services. One node:http process resolves the token with the same single SQL
// statement identity uses (access_token joined with its user) on identity's own database,
// and answers the same JSON. Env: BENCH_PORT, BENCH_DATABASE_URL, BENCH_ROOT_URL.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
const rootUrl = process.env.BENCH_ROOT_URL;
const noReplyHost = new URL(rootUrl).hostname;
const QUERY = {
  name: 'user-by-token',
  text: `SELECT u.* FROM access_token t JOIN "user" u ON u.id = t.user_id WHERE t.token_hash = $1`,
};

const iso = (d) => (d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '0001-01-01T00:00:00Z');

// The fields and rules of presenters/src/user.ts for a user looking at themselves.
function present(u) {
  const visibility = ['public', 'limited', 'private'][u.visibility] ?? 'public';
  return {
    id: Number(u.id), login: u.name, login_name: u.login_name, source_id: Number(u.source_id),
    full_name: u.full_name, email: u.email || `${u.lower_name}@noreply.${noReplyHost}`,
    avatar_url: `${rootUrl}avatars/${createHash('md5').update(u.email.trim().toLowerCase()).digest('hex')}`,
    html_url: `${rootUrl}${encodeURIComponent(u.name)}`, language: u.language, is_admin: u.is_admin,
    last_login: iso(u.last_login), created: iso(u.created), restricted: u.restricted, active: u.active,
    prohibit_login: u.prohibit_login, location: u.location, website: u.website, description: u.description,
    visibility, followers_count: 0, following_count: 0, starred_repos_count: 0, username: u.name,
  };
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer(async (req, res) => {
  try {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('token ') ? header.slice(6) : '';
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const { rows } = await pool.query({ ...QUERY, values: [hash] });
    if (!rows.length) return send(res, 401, { message: 'token is required', url: `${rootUrl}api/swagger` });
    send(res, 200, present(rows[0]));
  } catch (err) {
    send(res, 500, { message: String(err), url: '' });
  }
});

server.listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
