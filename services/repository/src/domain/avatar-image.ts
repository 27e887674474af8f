// What an uploaded avatar is, read from its first bytes: the image formats Gitea decodes
// (PNG, JPEG, GIF, WebP) and the width and height their headers give. Nothing else is
// trusted: a file whose header is none of these is no image (Gitea's image.DecodeConfig).

export interface ImageFacts {
  contentType: string;
  width: number;
  height: number;
}

const startsWith = (data: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
const ascii = (data: Uint8Array, at: number, text: string) => startsWith(data, [...text].map((c) => c.charCodeAt(0)), at);
const u16be = (d: Uint8Array, at: number) => (d[at]! << 8) | d[at + 1]!;
const u16le = (d: Uint8Array, at: number) => d[at]! | (d[at + 1]! << 8);
const u24le = (d: Uint8Array, at: number) => d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16);
const u32be = (d: Uint8Array, at: number) => ((d[at]! << 24) >>> 0) + ((d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!);

function png(d: Uint8Array): ImageFacts | undefined {
  if (d.length < 24 || !startsWith(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || !ascii(d, 12, 'IHDR')) return undefined;
  return { contentType: 'image/png', width: u32be(d, 16), height: u32be(d, 20) };
}

function gif(d: Uint8Array): ImageFacts | undefined {
  if (d.length < 10 || !(ascii(d, 0, 'GIF87a') || ascii(d, 0, 'GIF89a'))) return undefined;
  return { contentType: 'image/gif', width: u16le(d, 6), height: u16le(d, 8) };
}

/** JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) gives the size. */
function jpeg(d: Uint8Array): ImageFacts | undefined {
  if (d.length < 4 || d[0] !== 0xff || d[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 3 < d.length) {
    if (d[at] !== 0xff) return undefined;
    const marker = d[at + 1]!;
    if (marker === 0xff) { at += 1; continue; }
    // Markers without a length: TEM and RST0–7.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { at += 2; continue; }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image or scan data before any frame
    const length = u16be(d, at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > d.length) return undefined;
      return { contentType: 'image/jpeg', width: u16be(d, at + 7), height: u16be(d, at + 5) };
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) headers. */
function webp(d: Uint8Array): ImageFacts | undefined {
  if (d.length < 30 || !ascii(d, 0, 'RIFF') || !ascii(d, 8, 'WEBP')) return undefined;
  const facts = (width: number, height: number) => ({ contentType: 'image/webp', width, height });
  if (ascii(d, 12, 'VP8 ')) return startsWith(d, [0x9d, 0x01, 0x2a], 23) ? facts(u16le(d, 26) & 0x3fff, u16le(d, 28) & 0x3fff) : undefined;
  if (ascii(d, 12, 'VP8L')) {
    if (d[20] !== 0x2f) return undefined;
    return facts(1 + (((d[22]! & 0x3f) << 8) | d[21]!), 1 + (((d[24]! & 0x0f) << 10) | (d[23]! << 2) | ((d[22]! & 0xc0) >> 6)));
  }
  if (ascii(d, 12, 'VP8X')) return facts(1 + u24le(d, 24), 1 + u24le(d, 27));
  return undefined;
}

/** The image's type and size, or undefined when the bytes are none of the formats Gitea accepts. */
export function imageFacts(data: Uint8Array): ImageFacts | undefined {
  const facts = png(data) ?? jpeg(data) ?? gif(data) ?? webp(data);
  return facts && facts.width > 0 && facts.height > 0 ? facts : undefined;
}
