// Coalesces streamed text so a long answer reaches the window as a few dozen
// messages per second instead of one per token. Any other event first flushes
// the text gathered so far, so the window sees events in the order they happened.
import type { TurnEvent } from '../../core/agent/events';

export const DELTA_BATCH_MS = 16;

export class DeltaBatcher {
  private text = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (event: TurnEvent) => void,
    private readonly intervalMs: number = DELTA_BATCH_MS,
  ) {}

  push(event: TurnEvent): void {
    if (event.type === 'assistant_delta') {
      this.text += event.delta;
      this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
      return;
    }
    this.flush();
    this.emit(event);
  }

  /** Sends the gathered text now, if any. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.text === '') return;
    const delta = this.text;
    this.text = '';
    this.emit({ type: 'assistant_delta', delta });
  }
}
