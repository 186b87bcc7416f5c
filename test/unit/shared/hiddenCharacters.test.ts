import { describe, expect, it } from 'vitest';
import {
  hasHiddenCharacters,
  hiddenCharacterWarning,
  hiddenCodePoints,
  markHiddenCharacters,
} from '../../../src/shared/hiddenCharacters';
import { allowedRecordTitle, askedTitle, confirmationFieldLine } from '../../../src/shared/transcriptText';

describe('hidden characters', () => {
  it.each([
    ['bidi embeddings and overrides', '\u202A\u202B\u202C\u202D\u202E', '⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩'],
    ['bidi isolates', '\u2066\u2067\u2068\u2069', '⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩'],
    ['bidi marks', '\u200E\u200F\u061C', '⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩'],
    ['zero-width characters', 'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFF', 'a⟨U+200B⟩b⟨U+200C⟩c⟨U+200D⟩d⟨U+2060⟩e⟨U+FEFF⟩'],
    ['a soft hyphen and tag characters', 'x\u00ADy\u{E0041}', 'x⟨U+00AD⟩y⟨U+E0041⟩'],
    ['C0 controls, carriage return and escape', '\u0000\u0007\r\u001b[2J', '⟨U+0000⟩⟨U+0007⟩⟨U+000D⟩⟨U+001B⟩[2J'],
    ['DEL and C1 controls', '\u007F\u0080\u009B\u009F', '⟨U+007F⟩⟨U+0080⟩⟨U+009B⟩⟨U+009F⟩'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a⟨U+2028⟩b⟨U+2029⟩c'],
  ])('marks %s with their code points', (_what, text, marked) => {
    expect(hasHiddenCharacters(text)).toBe(true);
    expect(markHiddenCharacters(text)).toBe(marked);
  });

  it('leaves tab, newline and ordinary text of any script alone', () => {
    const text = 'if (a) {\n\treturn "héllo, 世界, שלום, مرحبا 👍🏽";\n}';
    expect(hasHiddenCharacters(text)).toBe(false);
    expect(markHiddenCharacters(text)).toBe(text);
  });

  it('lists each hidden code point once, in order', () => {
    expect(hiddenCodePoints('\u202Ea\u2066b\u202E\u2069')).toEqual([0x202e, 0x2066, 0x2069]);
  });

  it('warns naming where and which, and that what is displayed may differ from what is written', () => {
    expect(hiddenCharacterWarning([['Path', 'a.js'], ['Insert', 'x\u202Ey'], ['the changes', '+x\u202Ey\u009b']])).toBe(
      'Hidden characters: Insert and the changes contain invisible or bidirectional characters ' +
        '(right-to-left override (U+202E), control character (U+009B)), shown here as ⟨U+…⟩ marks. ' +
        'What is displayed may differ from what is written; approve only if you expect these characters.',
    );
    expect(hiddenCharacterWarning([['Insert', 'plain text\n']])).toBeNull();
  });

  it('shows a field line with marks, where JSON alone would leave bidi controls, DEL and C1 raw', () => {
    expect(confirmationFieldLine('Insert', 'a\u202Eb\u007f\u009b"\n')).toBe('Insert: "a⟨U+202E⟩b⟨U+007F⟩⟨U+009B⟩\\"\\n"');
  });
});

describe('tool titles', () => {
  it('mark hidden characters in a tool name the model made up', () => {
    expect(askedTitle('read\u202Eelif')).toBe('[Tool: read⟨U+202E⟩elif]');
    expect(allowedRecordTitle('x\u200By', 'bypass')).toBe('[Tool: x⟨U+200B⟩y, allowed without confirmation in bypass mode]');
  });
});
