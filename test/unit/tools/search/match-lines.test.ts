// matchLines reports exactly the lines a line-by-line search reports (as
// ripgrep does), numbers them, cuts long lines and prints context like rg -C.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLine, matchLines } from '../../../../src/main/core/tools/search/matchLines';
import { MAX_LINE_CHARS } from '../../../../src/main/core/tools/search/searchJob';

const re = (source: string, flags = 'gm') => new RegExp(source, flags);

/** The lines a search one line at a time finds: the reference. */
function lineByLine(text: string, source: string): string[] {
  if (text === '') return [];
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  return lines.flatMap((line, i) => {
    const m = new RegExp(source, 'm').exec(line);
    return m === null ? [] : [`f:${i + 1}:${cutLine(line, 0, line.length, m.index)}`];
  });
}

describe('matchLines', () => {
  it('finds the same lines as a line-by-line search, for any text and these patterns', () => {
    const patterns = ['a', 'ab', 'a\\s+b', '^$', '^a', 'b$', 'a[^x]*b', '\\s', 'ab|ba', '(?<=a)b', '', '.*', 'b\\n?a', 'a$\\n^b', '\\r$'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', '\n', ' ', '\r', 'x'), { maxLength: 40 }), fc.constantFrom(...patterns), (chars, source) => {
        const text = chars.join('');
        expect(matchLines(text, re(source), 'f', 0, 1000).lines).toEqual(lineByLine(text, source));
      }),
      { numRuns: 3000 },
    );
  });

  it('numbers lines from 1 and drops a carriage return at the end of a shown line', () => {
    const found = matchLines('one\r\ntwo\r\nthree two\r\n', re('two'), 'src/a.ts', 0, 10);
    expect(found.lines).toEqual(['src/a.ts:2:two', 'src/a.ts:3:three two']);
    expect(found.count).toBe(2);
    expect(found.more).toBe(false);
  });

  it('stops at the limit and says there was more', () => {
    const found = matchLines('x\nx\nx\n', re('x'), 'f', 0, 2);
    expect(found.lines).toEqual(['f:1:x', 'f:2:x']);
    expect(found.more).toBe(true);
    expect(matchLines('x\n', re('x'), 'f', 0, 0)).toEqual({ lines: [], count: 0, more: true });
  });

  it('prints context lines before and after, merged when groups touch and separated by -- when they do not', () => {
    const text = ['1', '2', 'hit', '4', '5', '6', '7', 'hit', '9', 'hit', '11'].join('\n') + '\n';
    expect(matchLines(text, re('hit'), 'f', 1, 10).lines).toEqual(['f-2-2', 'f:3:hit', 'f-4-4', '--', 'f-7-7', 'f:8:hit', 'f-9-9', 'f:10:hit', 'f-11-11']);
    // Context stops at the ends of the file.
    expect(matchLines('hit\nb\n', re('hit'), 'f', 5, 10).lines).toEqual(['f:1:hit', 'f-2-b']);
    expect(matchLines('\nhit', re('hit'), 'f', 5, 10).lines).toEqual(['f-1-', 'f:2:hit']);
  });

  it('cuts a long line to a window around its first match, saying how long it was', () => {
    const line = `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}`;
    const [shown] = matchLines(`${line}\n`, re('NEEDLE'), 'f', 0, 1).lines;
    expect(shown).toContain('NEEDLE');
    expect(shown.startsWith('f:1:…a')).toBe(true);
    expect(shown.endsWith('b… [line cut: 10,006 characters]')).toBe(true);
    expect(shown.length).toBeLessThan(MAX_LINE_CHARS + 60);
    expect(cutLine('short', 0, 5, 0)).toBe('short');
  });
});
