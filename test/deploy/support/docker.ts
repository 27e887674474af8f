// Just enough of the Dockerfile and .dockerignore grammars to check deploy/docker statically
// (no Docker engine runs here): stages with their instructions, and ignore-pattern matching.

export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  name: string | undefined;
  /** The FROM argument with global ARG defaults substituted. */
  from: string;
  instructions: Instruction[];
}
export interface Dockerfile {
  globalArgs: Record<string, string>;
  stages: Stage[];
}

/** Logical lines: continuations joined, comments and blank lines dropped. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current && line.startsWith('#')) continue; // comment inside a continued instruction
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(current + line);
    current = '';
  }
  if (current.trim()) lines.push(current.trim());
  return lines;
}

const substitute = (value: string, args: Record<string, string>): string =>
  value.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a: string, b: string) => args[a ?? b] ?? whole);

export function parseDockerfile(text: string): Dockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const [, keyword, args = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!m) throw new Error(`cannot parse FROM ${args}`);
      stages.push({ name: m[2]?.toLowerCase(), from: substitute(m[1], globalArgs), instructions: [] });
    } else if (stages.length === 0) {
      if (upper !== 'ARG') throw new Error(`${upper} before the first FROM`);
      const m = /^(\w+)(?:=(.*))?$/.exec(args);
      if (m) globalArgs[m[1]] = (m[2] ?? '').replace(/^"(.*)"$/, '$1');
    } else {
      stages[stages.length - 1].instructions.push({ keyword: upper, args });
    }
  }
  return { globalArgs, stages };
}

/** A stage and the stages it is built FROM, nearest first. */
export function stageChain(file: Dockerfile, name: string): Stage[] {
  const chain: Stage[] = [];
  let stage = file.stages.find((s) => s.name === name);
  while (stage) {
    if (chain.includes(stage)) throw new Error(`FROM cycle at ${name}`);
    chain.push(stage);
    const from = stage.from.toLowerCase();
    stage = file.stages.find((s) => s.name === from);
  }
  return chain;
}

/** The image a stage ultimately starts from (the last link of its chain). */
export function baseImage(file: Dockerfile, name: string): string {
  const chain = stageChain(file, name);
  return chain[chain.length - 1].from;
}

/** The last value of an instruction in effect for a stage (e.g. USER, ENTRYPOINT). */
export function effective(file: Dockerfile, name: string, keyword: string): string | undefined {
  for (const stage of stageChain(file, name)) {
    const found = stage.instructions.filter((i) => i.keyword === keyword);
    if (found.length) return found[found.length - 1].args;
  }
  return undefined;
}

export function instructionsInChain(file: Dockerfile, name: string, keyword: string): string[] {
  return stageChain(file, name).flatMap((s) => s.instructions.filter((i) => i.keyword === keyword).map((i) => i.args));
}

// ---------------------------------------------------------------- .dockerignore

function patternRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      // "**/" matches any number of directories, including none; a trailing "**" anything.
      if (pattern[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Docker's rules: patterns are relative to the context root, the last matching pattern
 * decides, "!" re-includes, and a pattern matching a directory excludes what is inside it.
 * Returns a predicate telling whether a context-relative path is left out of the context.
 */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = (negate ? l.slice(1) : l).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return { negate, regex: patternRegex(pattern) };
    });
  return (path: string) => {
    const parts = path.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const { negate, regex } of rules) {
      if (prefixes.some((p) => regex.test(p))) excluded = !negate;
    }
    return excluded;
  };
}
