import { describe, expect, it } from '@jest/globals';
import { isValidTopic, sanitizeTopics } from '../src/domain/topics.js';

describe('topic names, as Gitea validates them', () => {
  it('accepts lower-case letters, digits, dashes and dots, starting with a letter or digit, up to 35 characters', () => {
    for (const name of ['go', 'c99', 'web-app', 'v1.2', '3d', 'a'.repeat(35)]) expect([name, isValidTopic(name)]).toEqual([name, true]);
    for (const name of ['-go', '.hidden', 'has space', 'under_score', 'UPPER', 'a'.repeat(36), '']) expect([name, isValidTopic(name)]).toEqual([name, false]);
  });

  it('normalises, drops blanks and repeats, sorts, and sets the invalid apart', () => {
    expect(sanitizeTopics([' Rust ', 'rust', '', 'Web', 'no way', '-x'])).toEqual({ valid: ['rust', 'web'], invalid: ['no way', '-x'] });
  });
});
