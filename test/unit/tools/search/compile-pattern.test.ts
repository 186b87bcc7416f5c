// The pattern as a JavaScript regular expression, and the text every match
// of it holds (which lets a search pass by a file after one scan of its bytes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern, requiredLiteral } from '../../../../src/main/core/tools/search/compilePattern';

const plain = { fixedStrings: false, caseInsensitive: false };
const literalOf = (pattern: string, options = plain) => {
  const compiled = compilePattern(pattern, options);
  if (!compiled.ok) throw new Error(compiled.reason);
  return requiredLiteral(compiled.pattern);
};

describe('compilePattern', () => {
  it('makes line-anchored global expressions, escapes literal text, and adds u only where the pattern needs it', () => {
    expect(compilePattern('a.c', plain)).toEqual({ ok: true, pattern: { source: 'a.c', flags: 'gm' } });
    expect(compilePattern('a.c(', { fixedStrings: true, caseInsensitive: true })).toEqual({ ok: true, pattern: { source: 'a\\.c\\(', flags: 'gmi' } });
    expect(compilePattern('\\p{Lu}\\"', plain)).toMatchObject({ ok: false });
    expect(compilePattern('\\p{Lu}x', plain)).toEqual({ ok: true, pattern: { source: '\\p{Lu}x', flags: 'gmu' } });
    expect(compilePattern('say \\"hi\\"', plain)).toEqual({ ok: true, pattern: { source: 'say \\"hi\\"', flags: 'gm' } });
  });
});

describe('requiredLiteral', () => {
  it('takes the longest run of plain characters that every match holds', () => {
    expect(literalOf('\\bnew\\s+Worker\\(')).toBe('Worker(');
    expect(literalOf('needle_\\w+\\s+at')).toBe('needle_');
    expect(literalOf('TODO(', { fixedStrings: true, caseInsensitive: false })).toBe('TODO(');
    expect(literalOf('ab?c')).toBeNull();
    expect(literalOf('\\x41BC')).toBe('BC');
    expect(literalOf('x{2}yz')).toBe('yz');
    expect(literalOf('abc{0,3}d')).toBe('ab');
    expect(literalOf('foo(bar)?baz')).toBe('foo');
  });

  it('knows none for alternation, ignored case or unicode mode', () => {
    expect(literalOf('foo|bar')).toBeNull();
    expect(literalOf('foobar', { fixedStrings: false, caseInsensitive: true })).toBeNull();
    expect(literalOf('foobar\\p{L}')).toBeNull();
  });

  it('is held by every match, for random patterns and texts', () => {
    const atom = fc.constantFrom('a', 'b', 'ab', 'c', '\\w', '.', '[ab]', '[^a]', '(a|b)', '(?:ab)', '\\(', '(', 'x', '\\x61', '\\b', '^', '$', '\\1', '[]a]', '{', '}', '\\u0062');
    const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '+?', '*?', '{,2}');
    const pattern = fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'x', '(', ' ', '\n', '{', '}', '2', ','), { maxLength: 30 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(pattern, text, (source, subject) => {
        const compiled = compilePattern(source, plain);
        if (!compiled.ok) return;
        const literal = requiredLiteral(compiled.pattern);
        if (literal === null) return;
        const re = new RegExp(compiled.pattern.source, compiled.pattern.flags);
        if (re.test(subject)) expect(subject, `/${source}/ matched ${JSON.stringify(subject)} without ${JSON.stringify(literal)}`).toContain(literal);
      }),
      { numRuns: 20_000 },
    );
  });
});
