// Caps the text a confirmation shows: at most 20 lines and 2 KiB, then the
// count of bytes not shown, with the totals, so a person always knows how much
// was left out.
import { describeSize } from '../../../shared/textSize';

export const PREVIEW_MAX_LINES = 20;
export const PREVIEW_MAX_BYTES = 2 * 1024;

/** Byte length of text as UTF-8. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

// Counted where the dialog can count them too, so the Resulting file it shows as hunks change agrees with this.
export { countLines, describeSize } from '../../../shared/textSize';

/**
 * The text itself when it fits; otherwise its first lines (never splitting a
 * character) followed by a line such as
 * "... 3120 more bytes not shown (5168 bytes, 120 lines in total)".
 */
export function previewText(text: string): string {
  const shown = headOf(text);
  if (shown.length === text.length) return text;
  const hidden = byteLength(text) - byteLength(shown);
  const separator = shown.length === 0 || shown.endsWith('\n') ? '' : '\n';
  return `${shown}${separator}... ${hidden} more bytes not shown (${describeSize(text)} in total)`;
}

function headOf(text: string): string {
  let end = 0;
  let lines = 0;
  let bytes = 0;
  while (end < text.length && lines < PREVIEW_MAX_LINES) {
    const code = text.codePointAt(end) as number;
    const units = code > 0xffff ? 2 : 1;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > PREVIEW_MAX_BYTES) break;
    bytes += size;
    end += units;
    if (code === 0x0a) lines++;
  }
  return text.slice(0, end);
}
