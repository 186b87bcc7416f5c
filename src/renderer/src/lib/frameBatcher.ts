// Collects items that arrive faster than the screen can show them (streamed
// deltas) and hands them over at most once per animation frame. A timer backs
// up the frame, since a hidden window gets no frames but must stay current.
const FALLBACK_MS = 250;

export interface FrameBatcher<T> {
  push(item: T): void;
  /** Hands over whatever is pending now. */
  flush(): void;
  /** Drops anything pending (the batcher stays usable). */
  discard(): void;
}

export function createFrameBatcher<T>(deliver: (items: T[]) => void): FrameBatcher<T> {
  let pending: T[] = [];
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function cancel(): void {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== null) clearTimeout(timer);
    frame = null;
    timer = null;
  }

  function flush(): void {
    cancel();
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    deliver(items);
  }

  return {
    push(item) {
      pending.push(item);
      if (frame === null) frame = requestAnimationFrame(flush);
      if (timer === null) timer = setTimeout(flush, FALLBACK_MS);
    },
    flush,
    discard() {
      cancel();
      pending = [];
    },
  };
}
