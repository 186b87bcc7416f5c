import { describe, expect, it } from 'vitest';
import { formatConfirmationFields } from '../../../src/shared/transcriptText';
import { countLines, describeSize, previewText } from '../../../src/main/core/tools/preview';

describe('previewText', () => {
  it('returns text within 20 lines and 2 KiB unchanged', () => {
    const text = 'a\n'.repeat(20);
    expect(previewText(text)).toBe(text);
    expect(previewText('x'.repeat(2048))).toBe('x'.repeat(2048));
  });

  it('stops after 20 lines and counts the bytes not shown, with the totals', () => {
    expect(previewText('a\n'.repeat(21))).toBe(`${'a\n'.repeat(20)}... 2 more bytes not shown (42 bytes, 21 lines in total)`);
  });

  it('stops at 2 KiB without splitting a character', () => {
    const text = 'é'.repeat(1500); // 3000 bytes, 2 bytes each
    const preview = previewText(text);
    expect(preview).toBe(`${'é'.repeat(1024)}\n... 952 more bytes not shown (3000 bytes, 1 line in total)`);
  });

  it('never splits a four-byte character either', () => {
    const text = 'a' + '😀'.repeat(600); // 1 + 2400 bytes
    const shown = previewText(text).split('\n')[0];
    expect(shown).toBe('a' + '😀'.repeat(511));
  });
});

describe('sizes', () => {
  it('counts a last line without a newline, and none in an empty text', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('\n\n')).toBe(2);
  });

  it('states bytes of UTF-8, not characters', () => {
    expect(describeSize('héllo\n')).toBe('7 bytes, 1 line');
    expect(describeSize('x')).toBe('1 byte, 1 line');
  });
});

describe('formatConfirmationFields', () => {
  it('prints each field as the book does, with JSON escaping', () => {
    expect(
      formatConfirmationFields({
        fields: [
          { label: 'Remove', value: '"hi"' },
          { label: 'Insert', value: 'two\nlines\\' },
        ],
      }),
    ).toEqual(['Remove: "\\"hi\\""', 'Insert: "two\\nlines\\\\"']);
  });
});
