// When the person last pressed a key, anywhere in the window. An approval must
// not take keys that belong to typing already under way: a dialog that opened
// mid-word took the `y` of "deploy" as a yes. Keys less than TYPING_GAP_MS
// apart count as typing; no key that is part of typing can approve.
// Times are in the keydown events' timebase (performance.now): the caller
// reads the clock and passes it in, so these answers follow from their inputs.

/** Keys closer together than this are one burst of typing. */
export const TYPING_GAP_MS = 1000;

let lastKeyDownAt = Number.NEGATIVE_INFINITY;
/** For each keydown seen, the time since the keydown before it. */
const gapBefore = new WeakMap<Event, number>();

// Capture on the window runs before any element's handler, so every key is seen, even one a dialog then takes.
if (typeof window !== 'undefined') {
  window.addEventListener(
    'keydown',
    (event) => {
      gapBefore.set(event, event.timeStamp - lastKeyDownAt);
      lastKeyDownAt = event.timeStamp;
    },
    { capture: true },
  );
}

/** How long before `now` (performance.now()) the last key went down; Infinity when none has. */
export function sinceLastKey(now: number): number {
  return now - lastKeyDownAt;
}

/** True while keys are arriving less than TYPING_GAP_MS apart, at `now` (performance.now()). */
export function typingUnderWay(now: number): boolean {
  return sinceLastKey(now) < TYPING_GAP_MS;
}

/** Whether this keydown came on its own, after a pause, rather than as part of typing. */
export function isDeliberateKey(event: Event): boolean {
  return (gapBefore.get(event) ?? 0) >= TYPING_GAP_MS;
}
