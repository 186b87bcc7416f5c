// A session named after its first question shows that question's hidden
// characters as marks, as every other text from outside is shown, so a
// right-to-left override cannot make the title read otherwise than it is.
import { describe, expect, it } from 'vitest';
import { sessionLabel } from '../../../src/shared/sessionTitle';

describe('sessionLabel', () => {
  it('shows bidirectional controls and other hidden characters of the first question as marks', () => {
    expect(sessionLabel('Fix the \u202Egnp.exe\u202C bug')).toBe('Fix the ⟨U+202E⟩gnp.exe⟨U+202C⟩ bug');
    expect(sessionLabel('a\u2066b\u2069 c\u200Bd \u061Ce\u0007')).toBe('a⟨U+2066⟩b⟨U+2069⟩ c⟨U+200B⟩d ⟨U+061C⟩e⟨U+0007⟩');
    expect(sessionLabel('\u202E')).toBe('⟨U+202E⟩');
  });

  it('keeps a plain question as it was: whitespace folded, at most 60 characters', () => {
    expect(sessionLabel('  Why does\n\tthe build   fail?  ')).toBe('Why does the build fail?');
    expect(sessionLabel('x'.repeat(60))).toBe('x'.repeat(60));
    expect(sessionLabel('x'.repeat(61))).toBe(`${'x'.repeat(59)}…`);
    expect(sessionLabel(null)).toBe('Untitled session');
    expect(sessionLabel('   ')).toBe('Untitled session');
  });

  it('shortens by what is shown, never cutting a mark or a character in half', () => {
    // The override would start at the 56th shown character: its 8-character mark does not fit in 59, so it goes whole.
    const label = sessionLabel(`${'x'.repeat(55)}\u202E${'y'.repeat(20)}`);
    expect(label).toBe(`${'x'.repeat(55)}…`);
    const marked = sessionLabel(`${'x'.repeat(40)}\u202E${'y'.repeat(20)}`);
    expect(marked).toBe(`${'x'.repeat(40)}⟨U+202E⟩${'y'.repeat(11)}…`);
    expect(marked).toHaveLength(60);
    // An emoji is two UTF-16 units: it is kept whole or left out, never halved.
    const emoji = sessionLabel(`${'x'.repeat(58)}😀${'y'.repeat(5)}`);
    expect(emoji).toBe(`${'x'.repeat(58)}…`);
    expect(emoji).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it("marks hidden characters in a person's own title too, and keeps the title otherwise whole", () => {
    expect(sessionLabel('first question', 'Release\u200B notes')).toBe('Release⟨U+200B⟩ notes');
    expect(sessionLabel('first question', 'My title')).toBe('My title');
  });
});
