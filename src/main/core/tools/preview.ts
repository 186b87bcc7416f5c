// Caps the text a confirmation shows: at most 20 lines and 2 KiB, then the
// count of bytes not shown, with the totals, so a person always knows how much
// was left out.

export const PREVIEW_MAX_LINES = 20;
export const PREVIEW_MAX_BYTES = 2 * 1024;

/** Byte length of text as UTF-8. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Lines as a person counts them: a final line without a newline still counts; an empty text has none. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** "39 bytes, 3 lines": the totals every write confirmation and result states. */
export function describeSize(text: string): string {
  const bytes = byteLength(text);
  const lines = countLines(text);
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}, ${lines} ${lines === 1 ? 'line' : 'lines'}`;
}

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
