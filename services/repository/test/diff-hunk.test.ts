import { describe, expect, it } from '@jest/globals';
import { cutDiffAroundLine } from '../src/domain/diff-hunk.js';

const DIFF = [
  'diff --git a/code.txt b/code.txt',
  'index 1111111..2222222 100644',
  '--- a/code.txt',
  '+++ b/code.txt',
  '@@ -1,8 +1,7 @@',
  ' a',
  '-b',
  ' c',
  ' d',
  ' e',
  '-f',
  '+F',
  ' g',
  ' h',
  'diff --git a/other.txt b/other.txt',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/other.txt',
  '@@ -0,0 +1 @@',
  '+x',
  '',
].join('\n');

describe('the diff around a review comment\'s line', () => {
  it('ends at a new line with up to 3 rows before it, under a header counting both sides', () => {
    expect(cutDiffAroundLine(DIFF, 'code.txt', 5)).toBe(['@@ -4,3 +3,3 @@', ' d', ' e', '-f', '+F'].join('\n'));
  });

  it('ends at an old line when the line is negative', () => {
    expect(cutDiffAroundLine(DIFF, 'code.txt', -2)).toBe(['@@ -1,2 +1,1 @@', ' a', '-b'].join('\n'));
  });

  it('finds a file added by the pull', () => {
    expect(cutDiffAroundLine(DIFF, 'other.txt', 1)).toBe(['@@ -0,0 +1,1 @@', '+x'].join('\n'));
  });

  it('answers nothing for a line or path the diff does not show', () => {
    expect(cutDiffAroundLine(DIFF, 'code.txt', 40)).toBe('');
    expect(cutDiffAroundLine(DIFF, 'code.txt', 0)).toBe('');
    expect(cutDiffAroundLine(DIFF, 'missing.txt', 1)).toBe('');
  });
});
