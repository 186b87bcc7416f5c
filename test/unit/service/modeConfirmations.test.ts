// The one-time ids that bind a loosening to the warning the service showed:
// one use, one window, one session, one mode, a short life.
import { describe, expect, it } from 'vitest';
import { clientId } from '../../../src/main/service/clients';
import { MODE_CONFIRMATION_TTL_MS, ModeConfirmations } from '../../../src/main/service/features/modeConfirmations';
import type { SessionId } from '../../../src/shared/domain';

const A = clientId('window-a');
const B = clientId('window-b');
const S1 = '1'.repeat(32) as SessionId;
const S2 = '2'.repeat(32) as SessionId;

/** A clock the test moves by hand. */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('mode confirmations', () => {
  it('accepts an id once, from the window, session and mode it was issued for', () => {
    const confirmations = new ModeConfirmations();
    const id = confirmations.issue(A, S1, 'bypass');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(confirmations.redeem(id, A, S1, 'bypass')).toBe(true);
    expect(confirmations.redeem(id, A, S1, 'bypass')).toBe(false);
  });

  it.each([
    ['another window', B, S1, 'bypass'],
    ['another session', A, S2, 'bypass'],
    ['another mode', A, S1, 'accept-edits'],
  ] as const)('refuses an id presented for %s, and uses it up', (_what, client, session, mode) => {
    const confirmations = new ModeConfirmations();
    const id = confirmations.issue(A, S1, 'bypass');
    expect(confirmations.redeem(id, client, session, mode)).toBe(false);
    expect(confirmations.redeem(id, A, S1, 'bypass')).toBe(false);
  });

  it('refuses an id after its time is up, and accepts it until then', () => {
    const clock = manualClock();
    const confirmations = new ModeConfirmations(clock.now);
    const early = confirmations.issue(A, S1, 'bypass');
    clock.advance(MODE_CONFIRMATION_TTL_MS);
    expect(confirmations.redeem(early, A, S1, 'bypass')).toBe(true);
    const late = confirmations.issue(A, S1, 'bypass');
    clock.advance(MODE_CONFIRMATION_TTL_MS + 1);
    expect(confirmations.redeem(late, A, S1, 'bypass')).toBe(false);
  });

  it('keeps only the latest warning of a window, and voids the ids of a closed session', () => {
    const confirmations = new ModeConfirmations();
    const first = confirmations.issue(A, S1, 'accept-edits');
    const second = confirmations.issue(A, S1, 'bypass');
    const other = confirmations.issue(B, S2, 'bypass');
    expect(confirmations.redeem(first, A, S1, 'accept-edits')).toBe(false);
    confirmations.forgetSession(S1);
    expect(confirmations.redeem(second, A, S1, 'bypass')).toBe(false);
    expect(confirmations.redeem(other, B, S2, 'bypass')).toBe(true);
  });
});
