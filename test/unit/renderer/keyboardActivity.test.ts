// Typing under way is judged at the time the caller gives, in the keydown
// events' timebase: the module keeps only when keys went down.
import { beforeAll, describe, expect, it, vi } from 'vitest';

type KeyboardActivity = typeof import('../../../src/renderer/src/features/approvals/keyboardActivity');
let keys: KeyboardActivity;
const target = new EventTarget();

beforeAll(async () => {
  // The module listens on the window; a bare EventTarget stands in for it.
  vi.stubGlobal('window', target);
  keys = await import('../../../src/renderer/src/features/approvals/keyboardActivity');
  vi.unstubAllGlobals();
});

function keyDown(): Event {
  const event = new Event('keydown');
  target.dispatchEvent(event);
  return event;
}

describe('keyboard activity', () => {
  it('counts keys as typing until TYPING_GAP_MS after the last one, measured from the time it is given', () => {
    expect(keys.typingUnderWay(0)).toBe(false);
    const key = keyDown();
    expect(keys.sinceLastKey(key.timeStamp + 250)).toBeCloseTo(250, 6);
    // A millisecond either side of the gap: timestamps are fractional, so the exact boundary depends on rounding.
    expect(keys.typingUnderWay(key.timeStamp + keys.TYPING_GAP_MS - 1)).toBe(true);
    expect(keys.typingUnderWay(key.timeStamp + keys.TYPING_GAP_MS + 1)).toBe(false);
  });
});
