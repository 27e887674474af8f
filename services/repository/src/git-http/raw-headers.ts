// The headers Gitea serves a raw file with (modules/httplib/serve.go ServeUserContentByReader
// and modules/typesniffer): the content type sniffed from the first 1024 bytes with Go's
// http.DetectContentType rules plus SVG detection, where only images, SVG, PDF, audio and
// video keep their type, any text becomes `text/plain` with its charset (so a user's HTML is
// never rendered as a page) and the rest is `application/octet-stream`; an inline
// Content-Disposition; and a sandboxing Content-Security-Policy.

export const SNIFF_LENGTH = 1024;

type Signature = (data: Buffer, firstNonSpace: number) => string | undefined;

const WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);

const startsWith = (data: Buffer, prefix: number[] | string, at = 0) => {
  const bytes = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : Buffer.from(prefix);
  return data.length >= at + bytes.length && data.subarray(at, at + bytes.length).equals(bytes);
};

/** `<TAG` case-insensitively, then a space or `>` (Go's htmlSig). */
const htmlTag = (tag: string): Signature => (data, at) => {
  if (data.length < at + tag.length + 1) return undefined;
  if (data.subarray(at, at + tag.length).toString('latin1').toUpperCase() !== tag) return undefined;
  const next = data[at + tag.length];
  return next === 0x20 || next === 0x3e ? 'text/html' : undefined;
};

/** RIFF containers and other `magic....kind` layouts. */
const riff = (kind: string, type: string): Signature => (data) => (startsWith(data, 'RIFF') && startsWith(data, kind, 8) ? type : undefined);
const exact = (prefix: number[] | string, type: string): Signature => (data) => (startsWith(data, prefix) ? type : undefined);

const HTML_TAGS = ['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'];

function isMp4(data: Buffer): boolean {
  if (data.length < 12) return false;
  const boxSize = data.readUInt32BE(0);
  if (data.length < boxSize || boxSize % 4 !== 0 || !startsWith(data, 'ftyp', 4)) return false;
  for (let i = 8; i < boxSize; i += 4) {
    if (i === 12) continue; // the minor version
    if (startsWith(data, 'mp4', i)) return true;
  }
  return false;
}

// Go's sniffSignatures, in its order.
const SIGNATURES: Signature[] = [
  ...HTML_TAGS.map(htmlTag),
  (data, at) => (startsWith(data, '<?xml', at) ? 'text/xml' : undefined),
  exact('%PDF-', 'application/pdf'),
  exact('%!PS-Adobe-', 'application/postscript'),
  exact([0xfe, 0xff], 'text/plain; charset=utf-16be'),
  exact([0xff, 0xfe], 'text/plain; charset=utf-16le'),
  exact([0xef, 0xbb, 0xbf], 'text/plain; charset=utf-8'),
  exact([0x00, 0x00, 0x01, 0x00], 'image/x-icon'),
  exact([0x00, 0x00, 0x02, 0x00], 'image/x-icon'),
  exact('BM', 'image/bmp'),
  exact('GIF87a', 'image/gif'),
  exact('GIF89a', 'image/gif'),
  riff('WEBPVP', 'image/webp'),
  exact([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'),
  exact([0xff, 0xd8, 0xff], 'image/jpeg'),
  (data) => (startsWith(data, 'FORM') && startsWith(data, 'AIFF', 8) ? 'audio/aiff' : undefined),
  exact('ID3', 'audio/mpeg'),
  exact('OggS\x00', 'application/ogg'),
  exact('MThd\x00\x00\x00\x06', 'audio/midi'),
  riff('AVI ', 'video/avi'),
  riff('WAVE', 'audio/wave'),
  (data) => (isMp4(data) ? 'video/mp4' : undefined),
  exact([0x1a, 0x45, 0xdf, 0xa3], 'video/webm'),
  exact([0x00, 0x01, 0x00, 0x00], 'font/ttf'),
  exact('OTTO', 'font/otf'),
  exact('ttcf', 'font/collection'),
  exact('wOFF', 'font/woff'),
  exact('wOF2', 'font/woff2'),
  exact([0x1f, 0x8b, 0x08], 'application/x-gzip'),
  exact('PK\x03\x04', 'application/zip'),
  exact('Rar!\x1a\x07\x00', 'application/x-rar-compressed'),
  exact('Rar!\x1a\x07\x01\x00', 'application/x-rar-compressed'),
  exact('\x00asm', 'application/wasm'),
];

/** Bytes Go's sniffer counts as binary: control characters other than tab, newlines, FF, ESC. */
function hasBinaryBytes(data: Buffer): boolean {
  for (const b of data) {
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return true;
  }
  return false;
}

/** Go's http.DetectContentType over at most the first 1024 bytes. */
export function detectContentType(input: Buffer): string {
  const data = input.subarray(0, SNIFF_LENGTH);
  let firstNonSpace = 0;
  while (firstNonSpace < data.length && WHITESPACE.has(data[firstNonSpace])) firstNonSpace += 1;
  for (const signature of SIGNATURES) {
    const type = signature(data, firstNonSpace);
    if (type) return type;
  }
  return hasBinaryBytes(data) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

const SVG_TAG = /^\s*(?:(?:<!DOCTYPE\s+svg(?:[\s:]+.*?>|>))\s*)*<svg\b/is;
const SVG_IN_XML = /^<\?xml\b.*?\?>\s*(?:(?:<!DOCTYPE\s+svg(?:[\s:]+.*?>|>))\s*)*<svg\b/is;

/** Gitea's typesniffer: Go's sniffing plus SVG; an empty file is text. */
function sniffedType(data: Buffer): string {
  if (!data.length) return 'text/plain';
  const type = detectContentType(data);
  if (type.includes('text/plain') || type.includes('text/html') || type.includes('text/xml')) {
    const text = data.subarray(0, SNIFF_LENGTH).toString('utf8').replace(/<!--.*?-->/gs, '').trim();
    if ((type.includes('text/xml') ? SVG_IN_XML : SVG_TAG).test(text)) return 'image/svg+xml';
  }
  return type;
}

/** Valid UTF-8, allowing a sequence cut by the end of the sniffed prefix. */
function isUtf8Prefix(data: Buffer, complete: boolean): boolean {
  let end = data.length;
  if (!complete) {
    // Drop a trailing partial sequence: up to 3 bytes after the last lead byte.
    for (let back = 1; back <= Math.min(3, data.length); back += 1) {
      const b = data[data.length - back];
      if ((b & 0xc0) === 0xc0) {
        const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (need > back) end = data.length - back;
        break;
      }
      if ((b & 0x80) === 0) break;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

const BROWSABLE = [/^image\//, /^application\/pdf/, /^video\//, /^audio\//];

/**
 * The Content-Type of a raw file from its first bytes; `complete` says whether `head` is the
 * whole file. Text is `text/plain` with `charset=utf-8` when it decodes as UTF-8 (Gitea's
 * charset detection guesses other encodings; Anvil then names none).
 */
export function rawContentType(head: Buffer, complete: boolean): string {
  const data = head.subarray(0, SNIFF_LENGTH);
  const type = sniffedType(data);
  const mime = type.split(';')[0].trim();
  if (BROWSABLE.some((re) => re.test(mime))) return mime;
  if (!type.includes('text/')) return 'application/octet-stream';
  if (type.includes('charset=utf-16')) return `text/plain; ${type.split(';')[1].trim()}`;
  return isUtf8Prefix(data, complete || data.length < SNIFF_LENGTH) ? 'text/plain; charset=utf-8' : 'text/plain';
}

// RFC 2045 tspecials and the rest of what Go's mime.FormatMediaType quotes.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * `inline; filename=...` as Go's mime.FormatMediaType writes it (Gitea's
 * EncodeContentDisposition): a token as is, else a quoted string; a name with non-ASCII
 * characters gets an ASCII stand-in plus an RFC 2231 `filename*`.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName: string): string {
  const safe = [...fileName].map((c) => (c < ' ' || c > '~') && c !== '\t' ? '_' : c).join('');
  const quoted = TOKEN.test(safe) ? safe : `"${safe.replace(/(["\\])/g, '\\$1')}"`;
  const plain = `${disposition}; filename=${quoted}`;
  if (safe === fileName) return plain;
  const encoded = [...Buffer.from(fileName, 'utf8')]
    .map((b) => (b < 0x80 && TOKEN.test(String.fromCharCode(b)) && !"*'%".includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  return `${plain}; filename*=utf-8''${encoded}`;
}

/** Gitea's sandbox for served user content (PDF is not sandboxed: browsers cannot render it then). */
export function contentSecurityPolicy(contentType: string): string {
  return contentType.includes('application/pdf')
    ? "default-src 'none'; style-src 'unsafe-inline'"
    : "default-src 'none'; style-src 'unsafe-inline'; sandbox";
}
