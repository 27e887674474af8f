// The git_ref table (domain/git-refs.ts): a read is one prepared statement on the pg pool
// (it runs on every branch list, ref resolution and contents read); a rewrite replaces the
// repository's rows, its branch count and its version in one transaction.
import type pg from 'pg';
import { onlyNames, type GitRefRow, type GitRefRows, type RefSnapshot } from '../domain/git-refs.js';
import { protectionFromJson } from './branch-protections.js';
import { poolOf, type RepositoryDb } from './db.js';

// The repository by its directory's names (storage.ts lower-cases both), its state row, and
// its refs (all, or those $3 names): no state row, no result. With $4, the first row also
// carries the repository's branch protection rules and the names of user $5's teams in the
// owning organization (what a branch read shows), so a branch read stays one statement.
const READ_SQL = `
SELECT s.version::text AS version, r.default_branch, r.empty, g.name, g.object_id, g.object_type, g.commit_id, g.message,
       g.author_name, g.author_email, g.author_time::float8 AS author_time, g.committer_name, g.committer_email,
       g.committer_time::float8 AS committer_time, g.tag_message, g.tagger_name, g.tagger_email,
       g.tagger_time::float8 AS tagger_time, g.creator_time::float8 AS creator_time,
       CASE WHEN row_number() OVER (ORDER BY g.name) = 1 THEN x.protections END AS protections,
       CASE WHEN row_number() OVER (ORDER BY g.name) = 1 THEN x.teams END AS teams
FROM repository r
JOIN git_ref_state s ON s.repository_id = r.id
LEFT JOIN LATERAL (
  SELECT (SELECT json_agg(bp ORDER BY bp.priority, bp.id)::text FROM branch_protection bp WHERE bp.repository_id = r.id) AS protections,
         ARRAY(SELECT t.name FROM org_team t JOIN org_team_member m ON m.team_id = t.id
               WHERE m.user_id = $5::bigint AND t.org_id = r.owner_id) AS teams
  WHERE $4::boolean
) x ON true
LEFT JOIN git_ref g ON g.repository_id = r.id AND ($3::text[] IS NULL OR g.name = ANY($3::text[]))
WHERE r.lower_name = $2 AND lower(r.owner_login) = $1
ORDER BY g.name`;

const ID_SQL = 'SELECT r.id FROM repository r WHERE r.lower_name = $2 AND lower(r.owner_login) = $1 FOR UPDATE';

/**
 * One ref's row, as common table expressions of one statement (repo, upserted, counted,
 * state), with its values from `$at` (refRowValues): only for a repository whose rows were
 * written (a state row), with the repository row locked as replace() locks it, the branch
 * count grown when a branch is new, and the version moved on. `growth`: the size of the
 * repository with id `$at+19` also grows by `$at+18` bytes, in the same update of its row (a
 * statement that updated that row twice would keep only one of the changes).
 */
function refRowCtes(at: number, growth = false): string {
  const $ = (n: number) => `$${at + n - 1}`;
  const values = Array.from({ length: 16 }, (_, i) => $(i + 3)).join(', ');
  const newBranch = `(SELECT count(*) FROM upserted WHERE inserted)::int * (${$(3)} LIKE 'refs/heads/%')::int`;
  return `repo AS (
  SELECT r.id FROM repository r JOIN git_ref_state s ON s.repository_id = r.id
  WHERE r.lower_name = ${$(2)} AND lower(r.owner_login) = ${$(1)} FOR UPDATE OF r
), upserted AS (
  INSERT INTO git_ref (repository_id, name, object_id, object_type, commit_id, message, author_name, author_email, author_time,
    committer_name, committer_email, committer_time, tag_message, tagger_name, tagger_email, tagger_time, creator_time)
  SELECT repo.id, ${values} FROM repo
  ON CONFLICT (repository_id, name) DO UPDATE SET object_id = EXCLUDED.object_id, object_type = EXCLUDED.object_type,
    commit_id = EXCLUDED.commit_id, message = EXCLUDED.message, author_name = EXCLUDED.author_name, author_email = EXCLUDED.author_email,
    author_time = EXCLUDED.author_time, committer_name = EXCLUDED.committer_name, committer_email = EXCLUDED.committer_email,
    committer_time = EXCLUDED.committer_time, tag_message = EXCLUDED.tag_message, tagger_name = EXCLUDED.tagger_name,
    tagger_email = EXCLUDED.tagger_email, tagger_time = EXCLUDED.tagger_time, creator_time = EXCLUDED.creator_time
  RETURNING repository_id, xmax = 0 AS inserted
), counted AS (
  ${growth
    ? `UPDATE repository SET branch_count = branch_count + ${newBranch}, size = size + ${$(19)}, updated_at = now()
  WHERE id = ${$(20)}`
    : `UPDATE repository SET branch_count = branch_count + 1
  WHERE id IN (SELECT repository_id FROM upserted WHERE inserted) AND ${$(3)} LIKE 'refs/heads/%'`}
), state AS (
  UPDATE git_ref_state s SET version = GREATEST(s.version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint), synced_at = now()
  FROM repo WHERE s.repository_id = repo.id RETURNING s.repository_id
)`;
}

/** The values of refRowCtes, in order. */
export function refRowValues(owner: string, name: string, r: GitRefRow): unknown[] {
  return [...key(owner, name), r.name, r.objectId, r.objectType, r.commitId ?? null, r.message, r.authorName, r.authorEmail, r.authorTime,
    r.committerName, r.committerEmail, r.committerTime, r.tagMessage, r.taggerName, r.taggerEmail, r.taggerTime, r.creatorTime];
}

/**
 * `insert` run in the same statement as one ref's row: both commit, or neither. Its values
 * follow refRowValues' and, with `growth`, the bytes the size grows by and the repository's
 * id. The statement answers `written`: 1 when the ref's row was written, 0 when the
 * repository has no rows yet (the turn's end then writes them all from git).
 */
export function withRefRow(insert: string, growth: boolean): string {
  return `WITH ${refRowCtes(1, growth)}, inserted AS (${insert} RETURNING 1) SELECT (SELECT count(*) FROM state)::int AS written`;
}

const UPSERT_SQL = `WITH ${refRowCtes(1)} SELECT count(*)::int AS written FROM state`;

// One ref's row removed, as UPSERT_SQL writes one.
const REMOVE_SQL = `
WITH repo AS (
  SELECT r.id FROM repository r JOIN git_ref_state s ON s.repository_id = r.id
  WHERE r.lower_name = $2 AND lower(r.owner_login) = $1 FOR UPDATE OF r
), removed AS (
  DELETE FROM git_ref g USING repo WHERE g.repository_id = repo.id AND g.name = $3 RETURNING g.repository_id
), counted AS (
  UPDATE repository SET branch_count = GREATEST(branch_count - 1, 0)
  WHERE id IN (SELECT repository_id FROM removed) AND $3 LIKE 'refs/heads/%'
), state AS (
  UPDATE git_ref_state s SET version = GREATEST(s.version + 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint), synced_at = now()
  FROM repo WHERE s.repository_id = repo.id RETURNING s.repository_id
)
SELECT count(*)::int AS written FROM state`;

const COLUMNS = ['repository_id', 'name', 'object_id', 'object_type', 'commit_id', 'message', 'author_name', 'author_email', 'author_time',
  'committer_name', 'committer_email', 'committer_time', 'tag_message', 'tagger_name', 'tagger_email', 'tagger_time', 'creator_time'];

interface Row {
  version: string;
  default_branch: string;
  empty: boolean;
  protections: string | null;
  teams: string[] | null;
  name: string | null;
  object_id: string;
  object_type: string;
  commit_id: string | null;
  message: string;
  author_name: string;
  author_email: string;
  author_time: number;
  committer_name: string;
  committer_email: string;
  committer_time: number;
  tag_message: string;
  tagger_name: string;
  tagger_email: string;
  tagger_time: number;
  creator_time: number;
}

function toRef(row: Row & { name: string }): GitRefRow {
  return {
    name: row.name, objectId: row.object_id, objectType: row.object_type, commitId: row.commit_id ?? undefined, message: row.message,
    authorName: row.author_name, authorEmail: row.author_email, authorTime: row.author_time,
    committerName: row.committer_name, committerEmail: row.committer_email, committerTime: row.committer_time,
    tagMessage: row.tag_message, taggerName: row.tagger_name, taggerEmail: row.tagger_email, taggerTime: row.tagger_time, creatorTime: row.creator_time,
  };
}

const key = (owner: string, name: string) => [owner.toLowerCase(), name.toLowerCase()];

export function gitRefRows(db: RepositoryDb): GitRefRows {
  const pool = poolOf(db);
  if (!pool) throw new Error('gitRefRows needs a client made by createDb');

  return {
    async read(owner, name, only, extras) {
      const values = [...key(owner, name), only === undefined ? null : onlyNames(only), Boolean(extras?.protections), String(Math.max(extras?.userId ?? 0, 0))];
      const { rows } = await pool.query<Row>({ name: 'read-git-refs', text: READ_SQL, values });
      if (!rows.length) return undefined;
      const first = rows[0];
      const snapshot: RefSnapshot = { version: first.version, defaultBranch: first.default_branch, empty: first.empty, refs: [] };
      if (extras?.protections) {
        snapshot.protections = first.protections ? (JSON.parse(first.protections) as Record<string, unknown>[]).map(protectionFromJson) : [];
        snapshot.teams = first.teams ?? [];
      }
      for (const row of rows) if (row.name !== null) snapshot.refs.push(toRef(row as Row & { name: string }));
      return snapshot;
    },

    async replace(owner, name, refs) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // The repository row's lock orders two rewrites of one repository (two replicas).
        const found = await client.query<{ id: string }>(ID_SQL, key(owner, name));
        if (!found.rows.length) {
          await client.query('ROLLBACK');
          return false;
        }
        const id = found.rows[0].id;
        await client.query('DELETE FROM git_ref WHERE repository_id = $1', [id]);
        for (let at = 0; at < refs.length; at += 500) {
          const chunk = refs.slice(at, at + 500);
          const values: unknown[] = [];
          const tuples = chunk.map((r) => {
            const row = [id, r.name, r.objectId, r.objectType, r.commitId ?? null, r.message, r.authorName, r.authorEmail, r.authorTime,
              r.committerName, r.committerEmail, r.committerTime, r.tagMessage, r.taggerName, r.taggerEmail, r.taggerTime, r.creatorTime];
            const start = values.length;
            values.push(...row);
            return `(${row.map((_, i) => `$${start + i + 1}`).join(', ')})`;
          });
          await client.query(`INSERT INTO git_ref (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, values);
        }
        // Gitea's branch_count counts its branch table; Anvil's is the rows just written, kept on
        // the repository row in the same transaction so a push's answer and the next GET agree.
        // Written only when it moved: an unchanged row raises no access hint.
        const branches = refs.filter((r) => r.name.startsWith('refs/heads/')).length;
        await client.query('UPDATE repository SET branch_count = $2 WHERE id = $1 AND branch_count <> $2', [id, branches]);
        // Microseconds of the clock: a version never repeats, even after forget() dropped the row.
        await client.query(`INSERT INTO git_ref_state (repository_id, version) VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
          ON CONFLICT (repository_id) DO UPDATE SET version = GREATEST(git_ref_state.version + 1, EXCLUDED.version), synced_at = now()`, [id]);
        await client.query('COMMIT');
        return true;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

    async upsert(owner, name, r) {
      const { rows } = await pool.query<{ written: number }>({ name: 'upsert-git-ref', text: UPSERT_SQL, values: refRowValues(owner, name, r) });
      return rows[0]?.written === 1;
    },

    async remove(owner, name, ref) {
      const { rows } = await pool.query<{ written: number }>({ name: 'remove-git-ref', text: REMOVE_SQL, values: [...key(owner, name), ref] });
      return rows[0]?.written === 1;
    },

    async forget(owner, name) {
      await pool.query(`DELETE FROM git_ref_state s USING repository r
        WHERE s.repository_id = r.id AND r.lower_name = $2 AND lower(r.owner_login) = $1`, key(owner, name));
    },

    async unsynced(limit) {
      const { rows } = await pool.query<{ owner_login: string; lower_name: string }>(`SELECT r.owner_login, r.lower_name FROM repository r
        WHERE NOT EXISTS (SELECT 1 FROM git_ref_state s WHERE s.repository_id = r.id) ORDER BY r.id LIMIT $1`, [limit]);
      return rows.map((r) => ({ owner: r.owner_login, name: r.lower_name }));
    },
  };
}
