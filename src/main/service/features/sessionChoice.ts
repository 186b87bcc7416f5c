// The service and model a window's session uses: what its log last recorded
// when it was opened, then what the person picks in the window. The core asks
// for it whenever a turn starts (and the log records a change then, as a
// `model` record), so a pick made while a turn runs waits: the running turn,
// and any compaction inside it, keeps the service it started with, and the
// pick applies when the next message is sent.
import type { ServiceChoice } from '../../core/config/modelConfig';

export class SessionChoice {
  private current: ServiceChoice;
  private waiting: ServiceChoice | null = null;

  constructor(initial: ServiceChoice) {
    this.current = { ...initial };
  }

  /** What the session's requests use now; the core reads it per turn. */
  get inUse(): ServiceChoice {
    return this.current;
  }

  /** What the person chose last: the waiting pick, else the one in use. */
  get chosen(): ServiceChoice {
    return this.waiting ?? this.current;
  }

  /** A pick waits for the next message. */
  get pending(): boolean {
    return this.waiting !== null;
  }

  /** The person's pick: in use at once between turns; while a turn runs, from the next message on. */
  choose(choice: ServiceChoice, turnRunning: boolean): void {
    if (turnRunning) {
      this.waiting = { ...choice };
    } else {
      this.current = { ...choice };
      this.waiting = null;
    }
  }

  /** A message is about to be sent (no turn runs): a waiting pick takes effect. */
  applyWaiting(): void {
    if (this.waiting === null) return;
    this.current = this.waiting;
    this.waiting = null;
  }
}
