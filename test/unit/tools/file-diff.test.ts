import { applyPatch, createTwoFilesPatch } from 'diff';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/main/core/tools/unifiedDiff';

describe('unifiedDiff', () => {
  it('gives the same patch as a whole-file diff (three context lines) for a change deep in a file', () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i + 1}\n`).join('');
    const after = before.replace('line 250\n', 'line two hundred fifty\n');
    expect(unifiedDiff('big.txt', before, after)).toBe(
      createTwoFilesPatch('big.txt', 'big.txt', before, after, undefined, undefined, { context: 3 }),
    );
    expect(unifiedDiff('big.txt', before, after)).toContain('@@ -247,7 +247,7 @@');
  });

  it('always turns the old text into the new one when applied', () => {
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c', '\n', 'xy\n', 'é\n', ''), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyPatch(before, unifiedDiff('f.txt', before, after))).toBe(after);
      }),
      { numRuns: 1000 },
    );
  });
});
