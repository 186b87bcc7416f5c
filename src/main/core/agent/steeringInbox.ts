// Messages the person sends to a running turn ("Send now"): held here until
// the turn's next model request, when the loop takes them all, in the order
// they came, and puts each between the tool results and that request. The
// inbox belongs to one turn: once the turn stops taking messages it is closed,
// and what it still holds is handed back, so a front end can send it as the
// next turn instead of losing it.

export class SteeringInbox {
  private messages: string[] = [];
  private open = true;

  /** Whether the turn still takes messages. */
  get accepting(): boolean {
    return this.open;
  }

  /** Holds `text` for the next request; false when the turn no longer takes messages. */
  put(text: string): boolean {
    if (!this.open) return false;
    this.messages.push(text);
    return true;
  }

  /** Everything held, in order, now delivered by the caller. */
  take(): string[] {
    const taken = this.messages;
    this.messages = [];
    return taken;
  }

  /** The turn takes no more; returns what was never delivered. */
  close(): string[] {
    this.open = false;
    return this.take();
  }
}
