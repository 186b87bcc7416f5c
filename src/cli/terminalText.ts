// Everything `mino exec` prints comes partly from outside: the model's text
// and errors, file contents, command and MCP output, configuration. A
// terminal obeys control sequences in any of it (ESC [2J clears the screen,
// C1 CSI does the same in one byte, a bidi override reorders a line), so no
// such character reaches it raw: the transcript shows each as the visible
// mark the desktop uses, and JSON lines escape them (their values stay raw).
import { markHiddenCharacters, replaceHiddenCharacters } from '../shared/hiddenCharacters';

export interface Output {
  write(text: string): void;
}

/** Text for a person's terminal: CRLF becomes a newline, every other hidden character a ⟨U+XXXX⟩ mark. */
export function terminalText(text: string): string {
  return markHiddenCharacters(text.replace(/\r\n/g, '\n'));
}

/** An output that passes everything written to it through terminalText. */
export function terminalOutput(out: Output): Output {
  return { write: (text) => out.write(terminalText(text)) };
}

/**
 * One JSON line whose strings hold no raw control or format character: each
 * is written as a \u escape (JSON.stringify leaves DEL, C1 and bidi controls
 * raw), so a script parsing it gets the raw values and a terminal showing it gets no sequences.
 */
export function jsonLine(value: unknown): string {
  return replaceHiddenCharacters(JSON.stringify(value), (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}
