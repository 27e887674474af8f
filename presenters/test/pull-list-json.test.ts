import { describe, expect, it } from '@jest/globals';
import { jsonWithShared } from '../src/pull-list-json.js';

describe('a page of pulls serializes its repository once', () => {
  const repo = { id: 7, full_name: 'alice/app', owner: { login: 'alice' }, description: 'a "quoted" \\ description' };
  const page = (r: unknown, titles: string[]) => titles.map((title, i) => ({ number: i + 1, title, base: { ref: 'main', repo: r }, head: { ref: 'topic', repo: r } }));

  it('gives the same text as serializing every copy', () => {
    const titles = ['First', 'Second', 'Third'];
    expect(jsonWithShared('repo', repo, (r) => page(r, titles))).toBe(JSON.stringify(page(repo, titles)));
  });

  it('leaves alone text that looks like the placeholder inside a pull', () => {
    const titles = ['"repo":"anvil-shared-0"', 'x","repo":"y', '\\"repo\\":\\"'];
    const text = jsonWithShared('repo', repo, (r) => page(r, titles));
    expect(text).toBe(JSON.stringify(page(repo, titles)));
    expect(JSON.parse(text)[0].title).toBe(titles[0]);
  });

  it('keeps a null repository as null', () => {
    expect(jsonWithShared('repo', null, (r) => page(r, ['Only']))).toBe(JSON.stringify(page(null, ['Only'])));
  });
});
