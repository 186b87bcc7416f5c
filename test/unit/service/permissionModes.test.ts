// The service's store of session modes and of the loosenings main is asking
// about: modes live in memory only; one question at a time per session, void
// once the session closes.
import { describe, expect, it } from 'vitest';
import { PermissionModes } from '../../../src/main/service/features/modes';
import type { SessionId } from '../../../src/shared/domain';

const S1 = '1'.repeat(32) as SessionId;
const S2 = '2'.repeat(32) as SessionId;

describe('per-session permission modes', () => {
  it('starts every session in manual, keeps each session its own mode, and starts again in manual after a restart', () => {
    const modes = new PermissionModes();
    expect(modes.get(S1)).toBe('manual');
    modes.set(S1, 'bypass');
    expect(modes.get(S1)).toBe('bypass');
    expect(modes.get(S2)).toBe('manual');
    expect(new PermissionModes().get(S1)).toBe('manual');
  });
});

describe('tickets of the loosenings being asked about', () => {
  it('knows which loosening a session is asked about until its dialog closes, and lets the answer apply once', () => {
    const modes = new PermissionModes();
    const ticket = modes.issue(S1, 'bypass');
    expect(modes.asking(S1)).toBe('bypass');
    expect(modes.asking(S2)).toBeNull();
    expect(modes.redeem(S1, ticket)).toBe(true);
    expect(modes.asking(S1)).toBeNull();
    expect(modes.redeem(S1, ticket)).toBe(false);
  });

  it('voids the ticket of a closed session, and keeps its mode for this run', () => {
    const modes = new PermissionModes();
    modes.set(S1, 'accept-edits');
    const ticket = modes.issue(S1, 'bypass');
    const other = modes.issue(S2, 'bypass');
    modes.forgetTickets(S1);
    expect(modes.redeem(S1, ticket)).toBe(false);
    expect(modes.get(S1)).toBe('accept-edits');
    expect(modes.redeem(S2, other)).toBe(true);
  });

  it('does not let a ticket of an earlier question answer a later one', () => {
    const modes = new PermissionModes();
    const earlier = modes.issue(S1, 'accept-edits');
    modes.forgetTickets(S1);
    const later = modes.issue(S1, 'bypass');
    expect(modes.redeem(S1, earlier)).toBe(false);
    expect(modes.asking(S1)).toBe('bypass');
    expect(modes.redeem(S1, later)).toBe(true);
  });
});
