import { describe, expect, it } from '@jest/globals';
import { isDraftTitle } from '../src/pull.js';

describe('a pull request is a draft as Gitea decides it', () => {
  it('when its title starts with WIP: or [WIP], in any case', () => {
    expect(isDraftTitle('WIP: new parser')).toBe(true);
    expect(isDraftTitle('[wip] new parser')).toBe(true);
    expect(isDraftTitle('wip: new parser')).toBe(true);
  });

  it('not when the prefix is elsewhere or missing', () => {
    expect(isDraftTitle('New parser (WIP:)')).toBe(false);
    expect(isDraftTitle('WIPE the cache')).toBe(false);
    expect(isDraftTitle('New parser')).toBe(false);
  });
});
