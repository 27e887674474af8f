// What Anvil implements of Gitea's API, written from the served route table so the README
// and docs/implemented-operations.md cannot drift from the code (gateway/test checks both).
import { allOperations, type ContractOperation } from './document.js';

const areaOf = (op: ContractOperation): string => String((op.raw.tags ?? ['other'])[0]);

/** Areas in the contract's order of size, each with the operations served and not served. */
function byArea(served: ReadonlySet<string>) {
  const areas = new Map<string, { served: ContractOperation[]; missing: ContractOperation[] }>();
  for (const op of allOperations()) {
    const entry = areas.get(areaOf(op)) ?? { served: [], missing: [] };
    (served.has(op.operationId) ? entry.served : entry.missing).push(op);
    areas.set(areaOf(op), entry);
  }
  return [...areas].sort(([a, x], [b, y]) => y.served.length - x.served.length || a.localeCompare(b));
}

/** The README's short table: per area, how many of Gitea's operations Anvil serves. */
export function implementedSummary(operationIds: Iterable<string>): string {
  const served = new Set(operationIds);
  const rows = byArea(served).map(([area, { served: s, missing }]) => `| ${area} | ${s.length} | ${s.length + missing.length} |`);
  const total = allOperations().filter((op) => served.has(op.operationId)).length;
  return [
    '| area of Gitea\'s API | operations Anvil serves | operations Gitea has |',
    '|---|---|---|',
    ...rows,
    `| **all** | **${total}** | **${allOperations().length}** |`,
  ].join('\n');
}

/** docs/implemented-operations.md: every operation, served or not yet, area by area. */
export function implementedOperationsDocument(operationIds: Iterable<string>): string {
  const served = new Set(operationIds);
  const line = (op: ContractOperation) => `- \`${op.method} ${op.path}\` (${op.operationId})`;
  const sections = byArea(served).flatMap(([area, { served: s, missing }]) => [
    `## ${area}`,
    '',
    `Served (${s.length}):`,
    '',
    ...(s.length ? s.map(line) : ['- none yet']),
    '',
    `Not implemented in Anvil yet (${missing.length}; these answer 404 "not implemented in Anvil yet"):`,
    '',
    ...(missing.length ? missing.map(line) : ['- none']),
    '',
  ]);
  return [
    '# Implemented operations',
    '',
    'Generated from the gateway\'s route table by `gateway/test/implemented-docs.test.ts`',
    '(run it with `UPDATE_DOCS=1` to rewrite this file after adding a route).',
    '',
    ...sections,
  ].join('\n');
}
