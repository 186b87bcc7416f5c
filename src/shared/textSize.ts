// A text's size as Mino states it to the person and the model: UTF-8 bytes
// and lines, counted the same in main and in the renderer (which has no Buffer).

/** UTF-8 bytes of `text`, counted without any platform API (the renderer has no Buffer). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Lines as a person counts them: a final line without a newline still counts; an empty text has none. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** "39 bytes, 3 lines": the totals every write confirmation and result states (the Resulting file field). */
export function describeSize(text: string): string {
  const bytes = utf8Length(text);
  const lines = countLines(text);
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}, ${lines} ${lines === 1 ? 'line' : 'lines'}`;
}
