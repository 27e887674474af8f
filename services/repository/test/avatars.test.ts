import { describe, expect, it } from '@jest/globals';
import { imageFacts } from '../src/domain/avatar-image.js';
import { avatarName, checkAvatarImage, GITEA_AVATAR_LIMITS } from '../src/domain/avatars.js';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function pngOf(width: number, height: number): Buffer {
  const header = Buffer.from(PNG_1X1);
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

const gifOf = (width: number, height: number) => {
  const gif = Buffer.alloc(13);
  gif.write('GIF89a', 0, 'latin1');
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
};

/** SOI, an APP0 segment, then SOF0 with the size. */
const jpegOf = (width: number, height: number) => Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46,
  0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03,
]);

const webpOf = (width: number, height: number) => {
  const webp = Buffer.alloc(30);
  webp.write('RIFF', 0, 'latin1');
  webp.write('WEBPVP8X', 8, 'latin1');
  webp.writeUIntLE(width - 1, 24, 3);
  webp.writeUIntLE(height - 1, 27, 3);
  return webp;
};

describe('avatar images', () => {
  it('reads the type and size of PNG, GIF, JPEG and WebP headers', () => {
    expect(imageFacts(PNG_1X1)).toEqual({ contentType: 'image/png', width: 1, height: 1 });
    expect(imageFacts(gifOf(40, 30))).toEqual({ contentType: 'image/gif', width: 40, height: 30 });
    expect(imageFacts(jpegOf(640, 480))).toEqual({ contentType: 'image/jpeg', width: 640, height: 480 });
    expect(imageFacts(webpOf(300, 200))).toEqual({ contentType: 'image/webp', width: 300, height: 200 });
  });

  it('finds no image in text, a truncated header or an SVG', () => {
    expect(imageFacts(Buffer.from('hello, world'))).toBeUndefined();
    expect(imageFacts(PNG_1X1.subarray(0, 20))).toBeUndefined();
    expect(imageFacts(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined();
    expect(imageFacts(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('refuses what Gitea refuses: no image, over 1 MiB, wider or higher than 4096 pixels', () => {
    expect(checkAvatarImage(PNG_1X1)).toBe('image/png');
    expect(() => checkAvatarImage(Buffer.from('not an image'))).toThrow(/unknown format/);
    expect(() => checkAvatarImage(Buffer.concat([PNG_1X1, Buffer.alloc(GITEA_AVATAR_LIMITS.AVATAR_MAX_FILE_SIZE)]))).toThrow(/too large/);
    expect(() => checkAvatarImage(pngOf(4097, 10))).toThrow(/width is too large: 4097 > 4096/);
    expect(() => checkAvatarImage(pngOf(10, 5000))).toThrow(/height is too large: 5000 > 4096/);
    expect(checkAvatarImage(pngOf(4096, 4096))).toBe('image/png');
  });

  it('follows the [picture] limits configured', () => {
    const limits = { AVATAR_MAX_FILE_SIZE: 100, AVATAR_MAX_WIDTH: 64, AVATAR_MAX_HEIGHT: 32 };
    expect(checkAvatarImage(pngOf(64, 32), limits)).toBe('image/png');
    expect(() => checkAvatarImage(pngOf(65, 32), limits)).toThrow(/width is too large: 65 > 64/);
    expect(() => checkAvatarImage(pngOf(64, 33), limits)).toThrow(/height is too large: 33 > 32/);
    expect(() => checkAvatarImage(Buffer.concat([PNG_1X1, Buffer.alloc(100)]), limits)).toThrow(/too large: 170 bytes > 100/);
  });

  it('names an avatar by its repository and bytes, as Gitea\'s HashAvatar', () => {
    expect(avatarName(7, PNG_1X1)).toMatch(/^[0-9a-f]{64}$/);
    expect(avatarName(7, PNG_1X1)).toBe(avatarName(7, Buffer.from(PNG_1X1)));
    expect(avatarName(8, PNG_1X1)).not.toBe(avatarName(7, PNG_1X1));
  });
});
