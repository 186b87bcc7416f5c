// Coalesces streamed text so a long answer reaches the window as a few dozen
// messages per second instead of one per token, and a command's live output
// as ten a second, keeping only its newest part when it prints faster than a
// window could show. Any other event first flushes what was gathered, so the
// window sees events in the order they happened.
import type { TurnEvent } from '../../core/agent/events';
import { LIVE_OUTPUT_TAIL_CHARS } from '../../../shared/sessions';

export const DELTA_BATCH_MS = 16;
export const OUTPUT_BATCH_MS = 100;

type ToolOutput = Extract<TurnEvent, { type: 'tool_output' }>;

export class DeltaBatcher {
  private text = '';
  private output: { callId: string; chunk: string; skipped: number } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (event: TurnEvent) => void,
    private readonly intervalMs: number = DELTA_BATCH_MS,
    private readonly outputIntervalMs: number = OUTPUT_BATCH_MS,
    private readonly outputTailChars: number = LIVE_OUTPUT_TAIL_CHARS,
  ) {}

  push(event: TurnEvent): void {
    if (event.type === 'assistant_delta') {
      if (this.output) this.flush();
      this.text += event.delta;
      this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
      return;
    }
    if (event.type === 'tool_output') {
      if (this.text !== '' || (this.output && this.output.callId !== event.callId)) this.flush();
      this.addOutput(event);
      this.timer ??= setTimeout(() => this.flush(), this.outputIntervalMs);
      return;
    }
    this.flush();
    this.emit(event);
  }

  private addOutput(event: ToolOutput): void {
    const pending = this.output ?? { callId: event.callId, chunk: '', skipped: 0 };
    pending.skipped += event.skipped ?? 0;
    pending.chunk += event.chunk;
    const excess = pending.chunk.length - this.outputTailChars;
    if (excess > 0) {
      // Never start on the second half of a surrogate pair.
      const cut = isLowSurrogate(pending.chunk.charCodeAt(excess)) ? excess + 1 : excess;
      pending.chunk = pending.chunk.slice(cut);
      pending.skipped += cut;
    }
    this.output = pending;
  }

  /** Sends the gathered text or output now, if any. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.text !== '') {
      const delta = this.text;
      this.text = '';
      this.emit({ type: 'assistant_delta', delta });
    }
    if (this.output) {
      const { callId, chunk, skipped } = this.output;
      this.output = null;
      this.emit({ type: 'tool_output', callId, chunk, ...(skipped > 0 ? { skipped } : {}) });
    }
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
