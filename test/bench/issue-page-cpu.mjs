// CPU per page of an issue list's steps outside the database, in one process (deterministic,
// unlike req/s on a shared machine): collaboration's messages and proto-loader's serializer,
// the gateway's deserializer, presenter and JSON.stringify, for a page of 30 issues sharing
// one poster (as test/bench/issues.mjs seeds them).
//   node --max-semi-space-size=2 test/bench/issue-page-cpu.mjs      (after pnpm run build)
//   ROOT=/path/to/another/checkout node … compares another build (its own proto and presenters).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const ROOT = process.env.ROOT ?? fileURLToPath(new URL('../..', import.meta.url));
const { LOADER_OPTIONS, PROTO_ROOT } = await import(`${ROOT}/proto/dist/index.js`);
const protoLoader = createRequire(`${ROOT}/proto/package.json`)('@grpc/proto-loader');
import { readdirSync } from 'node:fs';
const messages = await import(`${ROOT}/services/collaboration/dist/grpc/messages.js`);
const presenters = await import(`${ROOT}/gateway/dist/presenters/issue.js`);
const files = readdirSync(`${PROTO_ROOT}/anvil/collaboration/v1`).map((f) => `anvil/collaboration/v1/${f}`);
const def = protoLoader.loadSync(files, LOADER_OPTIONS);
const m = def['anvil.collaboration.v1.IssueService'].ListIssues;
const profile = { id: 1, login: 'bench-admin', full_name: '', email: 'bench@example.com', is_admin: true, active: true, prohibit_login: false, restricted: false,
  location: '', website: '', description: '', visibility: 'VISIBILITY_PUBLIC', language: '', created_at: { seconds: 1795000000, nanos: 0 }, last_login: { seconds: 1795000000, nanos: 0 },
  login_name: '', source_id: 0, max_repo_creation: -1, must_change_password: false, keep_email_private: false, allow_create_organization: true, allow_git_hook: false, allow_import_local: false, type: 'user' };
const now = new Date();
const issues = Array.from({ length: 30 }, (_, k) => ({
  id: 100000 - k, repositoryId: 2, index: 100000 - k, posterId: 1, poster: profile, title: `Issue ${100000 - k}`, body: `Body of issue ${100000 - k}`,
  isClosed: false, isPull: false, isLocked: false,
  labels: k % 2 ? [] : [{ id: 1, name: 'bug', color: '#ee0701', description: '', exclusive: false, isArchived: false, repositoryId: 2, orgId: 0 }],
  milestone: k % 2 ? undefined : { id: 1, title: 'v1', description: '', isClosed: false, openIssues: 50000, closedIssues: 0, createdAt: now, updatedAt: now },
  assignees: [], comments: 0, createdAt: now, updatedAt: now, pinOrder: 0, ref: '', contentVersion: 0,
}));
const caller = { userId: 1, login: 'bench-admin', isAdmin: true, restricted: false };
const repo = { id: 2, owner: 'bench-admin', name: 'bench-issues-large' };
const rootUrl = 'http://127.0.0.1:3000/';
const dedup = !!messages.issueListMessage;
let msg, buf, obj, body, json;
const bench = (name, fn, n = 3000) => {
  for (let i = 0; i < 300; i++) fn();
  const t = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const d = process.cpuUsage(t);
  console.log(`${name.padEnd(24)} ${((d.user + d.system) / n).toFixed(1)} µs/page`);
};
bench('collab: messages', () => { msg = dedup ? messages.issueListMessage(issues, 100000) : { issues: issues.map(messages.issueMessage), total: 100000 }; });
bench('collab: serialize', () => { buf = m.responseSerialize(msg); });
bench('gateway: deserialize', () => { obj = m.responseDeserialize(buf); });
bench('gateway: present', () => { const shown = new Map(); body = (dedup ? presenters.issuesOf(obj) : obj.issues).map((i) => presenters.presentIssue(i, repo, caller, rootUrl, shown)); });
bench('gateway: stringify', () => { json = JSON.stringify(body); });
console.log(`wire ${buf.length} B, json ${json.length} B`);
