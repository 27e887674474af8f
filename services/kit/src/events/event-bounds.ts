// An event never carries unbounded text. Request validation limits each field at the
// gateway, but an event is built from stored state and from git (commit messages, file
// lists), so the kit bounds every payload where it is built, whatever the field: one
// oversized value must not make an event the NATS server refuses (max_payload, 1 MiB by
// default), which would stop its service's relay. Consumers that need a long text whole
// (an issue body for a webhook) fetch it from its owner by id.

/** Longest string an event field carries; longer ones are cut (at a character boundary). */
export const EVENT_TEXT_MAX_BYTES = 64 * 1024;

/**
 * Size an encoded event should stay under: well below NATS's default max_payload (1 MiB),
 * leaving room for headers and for servers configured lower. An event still larger after
 * its strings were cut to EVENT_TEXT_MAX_BYTES gets them cut further (TIGHTER_TEXT_LIMITS).
 */
export const EVENT_TARGET_MAX_BYTES = 512 * 1024;

/** Successively tighter string limits for an event that is still too large. */
export const TIGHTER_TEXT_LIMITS = [4 * 1024, 256] as const;

/** `text` cut to at most `maxBytes` of UTF-8, never splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // A JS string of n UTF-16 units is at most 3n bytes: most strings need no measuring.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  const bytes = Buffer.from(text).subarray(0, maxBytes);
  // Drop a trailing partial character (continuation bytes 10xxxxxx and their lead byte).
  let end = bytes.length;
  let back = end - 1;
  while (back >= 0 && (bytes[back] & 0xc0) === 0x80) back--;
  if (back >= 0) {
    const lead = bytes[back];
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - back < need) end = back;
  }
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * A copy of `payload` whose strings are at most `maxBytes` long; `cut` counts the strings
 * that were shortened. Byte arrays, numbers, dates and the like are kept as they are.
 */
export function boundStrings<T>(payload: T, maxBytes: number): { value: T; cut: number } {
  let cut = 0;
  // Iterative, so a deeply nested payload cannot overflow the stack.
  const root = { v: payload as unknown };
  const stack: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number }> = [{ holder: root as Record<string, unknown>, key: 'v' }];
  while (stack.length) {
    const { holder, key } = stack.pop()!;
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value === 'string') {
      const bounded = truncateUtf8(value, maxBytes);
      if (bounded !== value) cut++;
      (holder as Record<string | number, unknown>)[key] = bounded;
    } else if (Array.isArray(value)) {
      const copy = value.slice();
      (holder as Record<string | number, unknown>)[key] = copy;
      for (let i = 0; i < copy.length; i++) stack.push({ holder: copy, key: i });
    } else if (isPlainObject(value)) {
      const copy: Record<string, unknown> = { ...value };
      (holder as Record<string | number, unknown>)[key] = copy;
      for (const k of Object.keys(copy)) stack.push({ holder: copy, key: k });
    }
  }
  return { value: root.v as T, cut };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
