// How the contents routes decode content and build links, as Gitea's Go code does.
import { describe, expect, it } from '@jest/globals';
import { pathEscapeSegments, queryEscape } from '@anvil/presenters/contents.js';
import { decodeBase64 } from '../src/routes/repo-contents.js';

describe('content as base64', () => {
  it('decodes standard padded base64, ignoring line breaks', () => {
    expect(decodeBase64('aGVsbG8=').toString()).toBe('hello');
    expect(decodeBase64('aGVs\r\nbG8=').toString()).toBe('hello');
    expect(decodeBase64('').length).toBe(0);
  });

  it('refuses what Go\'s StdEncoding refuses, naming the byte', () => {
    expect(() => decodeBase64('aGVsbG8')).toThrow('illegal base64 data at input byte 4');
    expect(() => decodeBase64('aGV*bG8=')).toThrow('illegal base64 data at input byte 3');
    expect(() => decodeBase64('aG=sbG8=')).toThrow('illegal base64 data');
  });
});

describe('links', () => {
  it('escapes each path segment as url.PathEscape and a ref as url.QueryEscape', () => {
    expect(pathEscapeSegments('docs/a b/c#d?.md')).toBe('docs/a%20b/c%23d%3F.md');
    expect(pathEscapeSegments('a+b/@x:y')).toBe('a+b/@x:y');
    expect(queryEscape('feature/a b')).toBe('feature%2Fa+b');
  });
});
