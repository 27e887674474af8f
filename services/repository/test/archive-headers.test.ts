// An archive's download name follows the ref, which may be any UTF-8: the header must stay
// Latin-1 (Node refuses anything else) and still carry the real name (RFC 6266/5987).
import { describe, expect, it } from '@jest/globals';
import { attachmentDisposition } from '../src/git-http/archive.js';

describe('the Content-Disposition of an archive', () => {
  it('names an ASCII file plainly and as RFC 5987, as Gitea does', () => {
    expect(attachmentDisposition('shelf-main.zip')).toBe(`attachment; filename="shelf-main.zip"; filename*=UTF-8''shelf-main.zip`);
  });

  it('keeps a name outside Latin-1 in filename* only', () => {
    const header = attachmentDisposition('target-😀.zip');
    expect(header).toBe(`attachment; filename="target-_.zip"; filename*=UTF-8''target-%F0%9F%98%80.zip`);
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
  });

  it('escapes quotes, backslashes and the characters RFC 5987 reserves', () => {
    expect(attachmentDisposition(`a"b\\c'(d)*.zip`)).toBe(`attachment; filename="a_b_c'(d)*.zip"; filename*=UTF-8''a%22b%5Cc%27%28d%29%2A.zip`);
  });
});
