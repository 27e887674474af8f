// An operator who sets nothing gets Gitea's defaults in every section, and a typo stops
// the process instead of silently falling back.
import { describe, expect, test } from '@jest/globals';
import { ConfigError, loadConfig } from '@anvil/kit';

describe('configuration defaults', () => {
  test("sections nobody configured still carry Gitea's defaults", () => {
    const config = loadConfig({});
    expect(config.settings.api).toMatchObject({ DEFAULT_PAGING_NUM: 30, MAX_RESPONSE_ITEMS: 50 });
    expect(config.settings.ui.REACTIONS).toEqual(['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']);
    expect(config.settings.security.MIN_PASSWORD_LENGTH).toBe(8);
  });

  test('one key set in a section keeps the defaults of its other keys', () => {
    const config = loadConfig({ ANVIL__api__DEFAULT_PAGING_NUM: '10' });
    expect(config.settings.api).toMatchObject({ DEFAULT_PAGING_NUM: 10, MAX_RESPONSE_ITEMS: 50 });
  });

  test('an unknown key is refused with its name', () => {
    expect(() => loadConfig({ ANVIL__api__DEFAULT_PAGING_NUMBER: '10' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANVIL__api__DEFAULT_PAGING_NUMBER: '10' })).toThrow(/DEFAULT_PAGING_NUMBER/);
  });
});
