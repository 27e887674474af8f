// The few lines of a unified diff around one line (Gitea's CutDiffAroundLine), kept with a
// review comment so it reads the same after later pushes. A line is the new file's when
// positive, the old file's when negative.

/** Lines before the commented one that the hunk keeps (Gitea's default). */
const CONTEXT = 3;

interface DiffRow { text: string; oldLine: number; newLine: number }

/** The diff's section for `path` (matched on the new name, or the old one for a deletion). */
function fileSection(diff: string, path: string): string[] | undefined {
  const sections = diff.split(/^(?=diff --git )/m);
  for (const section of sections) {
    const lines = section.split('\n');
    const names = lines.filter((l) => l.startsWith('+++ ') || l.startsWith('--- ')).map((l) => l.slice(4).replace(/^[ab]\//, ''));
    if (names.includes(path)) return lines;
  }
  return undefined;
}

/** The hunks of a file section, each as its rows with the line numbers they carry. */
function hunksOf(section: string[]): DiffRow[][] {
  const hunks: DiffRow[][] = [];
  let rows: DiffRow[] | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const text of section) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      rows = [];
      hunks.push(rows);
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (!rows || text.startsWith('\\')) continue;
    if (text.startsWith('+')) rows.push({ text, oldLine, newLine: newLine++ });
    else if (text.startsWith('-')) rows.push({ text, oldLine: oldLine++, newLine });
    else if (text.startsWith(' ')) rows.push({ text, oldLine: oldLine++, newLine: newLine++ });
  }
  return hunks;
}

/** The hunk header and rows ending at the commented line; "" when the diff does not show it. */
export function cutDiffAroundLine(diff: string, path: string, line: number): string {
  const section = fileSection(diff, path);
  if (!section || !Number.isSafeInteger(line) || line === 0) return '';
  const old = line < 0;
  const wanted = Math.abs(line);
  for (const rows of hunksOf(section)) {
    const at = rows.findIndex((r) => (old ? !r.text.startsWith('+') && r.oldLine === wanted : !r.text.startsWith('-') && r.newLine === wanted));
    if (at < 0) continue;
    const cut = rows.slice(Math.max(0, at - CONTEXT), at + 1);
    const oldCount = cut.filter((r) => !r.text.startsWith('+')).length;
    const newCount = cut.filter((r) => !r.text.startsWith('-')).length;
    return [`@@ -${cut[0].oldLine},${oldCount} +${cut[0].newLine},${newCount} @@`, ...cut.map((r) => r.text)].join('\n');
  }
  return '';
}
