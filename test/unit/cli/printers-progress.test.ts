// What `mino exec` prints of a turn's transient progress: a retry is told on
// stderr (or as its own JSON line), a command's live output is not printed
// (its result is, once).
import { describe, expect, it } from 'vitest';
import { jsonPrinter, textPrinter } from '../../../src/cli/printers';
import type { TurnEvent } from '../../../src/shared/sessions';

const MESSAGE = 'The model service answered 429 (rate limited); retrying in 4 s (attempt 2 of 4).';
const RETRY: TurnEvent = {
  type: 'model_retry',
  message: MESSAGE,
  attempt: 2,
  attempts: 4,
  delayMs: 4000,
};

function collect() {
  const chunks: string[] = [];
  return { output: { write: (text: string) => void chunks.push(text) }, text: () => chunks.join('') };
}

describe('mino exec printers and progress events', () => {
  it('tells a retry on stderr in the text form, and prints no live output', () => {
    const out = collect();
    const err = collect();
    const printer = textPrinter(out.output, err.output);
    printer.event(RETRY);
    printer.event({ type: 'tool_output', callId: 'c', chunk: 'live line\n' });
    expect(err.text()).toBe(`Note: ${MESSAGE}\n`);
    expect(out.text()).toBe('');
  });

  it('writes a retry as its own JSON line, and no line for live output', () => {
    const out = collect();
    const printer = jsonPrinter(out.output);
    printer.event(RETRY);
    printer.event({ type: 'tool_output', callId: 'c', chunk: 'live line\n' });
    const lines = out.text().trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([{ type: 'model_retry', message: MESSAGE, attempt: 2, attempts: 4, delay_ms: 4000 }]);
  });
});
