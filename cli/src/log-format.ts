// Makes one line of child output readable on a terminal: a pino JSON line becomes
// "LEVEL message key=value ...", anything else passes through untouched. Off the
// terminal (files, Kubernetes, CI) lines stay raw JSON so log tooling can parse them.

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '90' },
  30: { label: 'INFO ', color: '32' },
  40: { label: 'WARN ', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '35' },
};

// Fields every pino line carries that the prefix or the terminal already says.
const NOISE = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'name', 'svc', 'v']);

export function colorize(text: string, code: string, enabled: boolean): string {
  return enabled ? `\u001b[${code}m${text}\u001b[0m` : text;
}

export function formatLogLine(line: string, color: boolean): string {
  if (!line.startsWith('{"level":')) return line;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVELS[record.level as number] ?? { label: String(record.level), color: '0' };
  const extras = Object.entries(record)
    .filter(([key]) => !NOISE.has(key))
    .map(([key, value]) => {
      // Errors are serialized by pino as {type, message, stack}: the stack is what helps.
      if (key === 'err' && value && typeof value === 'object' && 'stack' in value) return `\n${String((value as { stack: unknown }).stack)}`;
      return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
    });
  return [colorize(level.label, level.color, color), String(record.msg ?? ''), ...extras].join(' ');
}
