// The service's store of session modes and the one-time tickets that bind a
// loosening to the warning it showed: one use, one window, one session, one
// mode, a short life. Modes live in memory only.
import { describe, expect, it } from 'vitest';
import { clientId } from '../../../src/main/service/clients';
import { MODE_CONFIRMATION_TTL_MS, PermissionModes, STALE_CONFIRMATION_MESSAGE } from '../../../src/main/service/features/modes';
import { MODE_WARNINGS } from '../../../src/main/core/policy/modes';
import type { PermissionMode, SessionId } from '../../../src/shared/domain';

const A = clientId('window-a');
const B = clientId('window-b');
const S1 = '1'.repeat(32) as SessionId;
const S2 = '2'.repeat(32) as SessionId;

/** A clock the test moves by hand. */
function manualClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** Asks, then confirms with the ticket, as a window does after the person said yes. */
function loosen(modes: PermissionModes, session: SessionId, mode: PermissionMode, client = A) {
  const asked = modes.request(client, session, { mode });
  expect(asked).toMatchObject({ status: 'needs_confirmation', warning: MODE_WARNINGS[mode] });
  const changed = modes.request(client, session, { mode, confirmationId: asked.confirmationId });
  expect(changed).toEqual({ status: 'changed', mode, message: `Permission mode for this session: ${mode}.` });
}

describe('per-session permission modes', () => {
  it('starts every session in manual, keeps each session its own mode, and starts again in manual after a restart', () => {
    const modes = new PermissionModes();
    expect(modes.get(S1)).toBe('manual');
    loosen(modes, S1, 'bypass');
    expect(modes.get(S1)).toBe('bypass');
    expect(modes.get(S2)).toBe('manual');
    expect(new PermissionModes().get(S1)).toBe('manual');
  });

  it('keeps the mode of a closed session for this run, but voids its tickets', () => {
    const modes = new PermissionModes();
    loosen(modes, S1, 'accept-edits');
    const asked = modes.request(A, S1, { mode: 'bypass' });
    modes.forgetTickets(S1);
    expect(modes.get(S1)).toBe('accept-edits');
    expect(modes.request(A, S1, { mode: 'bypass', confirmationId: asked.confirmationId })).toMatchObject({ status: 'error', mode: 'accept-edits' });
  });

  it('shows the warning of the mode asked for, and changes nothing until the ticket comes back', () => {
    const modes = new PermissionModes();
    const asked = modes.request(A, S1, { mode: 'accept-edits' });
    expect(asked).toEqual({
      status: 'needs_confirmation',
      mode: 'manual',
      message: 'Switch this session to accept-edits? Permission mode for this session unchanged until you confirm: manual.',
      warning: 'In this session, accept-edits mode writes and edits project files without asking. Bash and MCP calls still ask; protected files stay refused.',
      confirmationId: expect.any(String),
    });
    expect(modes.get(S1)).toBe('manual');
    // accept-edits -> bypass loosens again, with the bypass warning.
    modes.request(A, S1, { mode: 'accept-edits', confirmationId: asked.confirmationId });
    expect(modes.request(A, S1, { mode: 'bypass' })).toMatchObject({ status: 'needs_confirmation', warning: MODE_WARNINGS.bypass });
    expect(MODE_WARNINGS.bypass).toMatch(/Bash commands run in the sandbox where this machine has one .*a command that asks to leave the sandbox still asks/);
    expect(MODE_WARNINGS.bypass).toMatch(/MCP arguments go to their services/);
  });

  it.each([
    ['bypass', 'accept-edits'],
    ['bypass', 'manual'],
    ['accept-edits', 'manual'],
  ] as const)('tightens from %s to %s at once, without a ticket', (from, to) => {
    const modes = new PermissionModes();
    loosen(modes, S1, from);
    expect(modes.request(A, S1, { mode: to })).toEqual({ status: 'changed', mode: to, message: `Permission mode for this session: ${to}.` });
  });

  it('reports the current mode unchanged when it is asked for again; accepts surrounding spaces', () => {
    const modes = new PermissionModes();
    loosen(modes, S1, 'bypass');
    expect(modes.request(A, S1, { mode: ' bypass ' })).toEqual({ status: 'unchanged', mode: 'bypass', message: 'Permission mode for this session unchanged: bypass.' });
  });

  it.each(['auto', 'bypass now', 'Bypass', 'manual please', 'accept_edits'])('refuses %j and changes nothing', (name) => {
    const modes = new PermissionModes();
    loosen(modes, S1, 'accept-edits');
    expect(modes.request(A, S1, { mode: name })).toEqual({
      status: 'error',
      mode: 'accept-edits',
      message: `Unknown permission mode "${name}". Use manual, accept-edits or bypass. Permission mode for this session unchanged: accept-edits.`,
    });
  });

  it('refuses a loosening that brings a ticket it was not given, and stays put', () => {
    const modes = new PermissionModes();
    const stale = modes.request(A, S1, { mode: 'bypass', confirmationId: '7d3c8d9e-0000-4000-8000-000000000000' });
    expect(stale).toEqual({ status: 'error', mode: 'manual', message: `${STALE_CONFIRMATION_MESSAGE} Permission mode for this session unchanged: manual.` });
  });
});

describe('mode confirmation tickets', () => {
  it('accepts a ticket once, from the window, session and mode it was issued for', () => {
    const modes = new PermissionModes();
    const id = modes.issue(A, S1, 'bypass');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(modes.redeem(id, A, S1, 'bypass')).toBe(true);
    expect(modes.redeem(id, A, S1, 'bypass')).toBe(false);
  });

  it.each([
    ['another window', B, S1, 'bypass'],
    ['another session', A, S2, 'bypass'],
    ['another mode', A, S1, 'accept-edits'],
  ] as const)('refuses a ticket presented for %s, and uses it up', (_what, client, session, mode) => {
    const modes = new PermissionModes();
    const id = modes.issue(A, S1, 'bypass');
    expect(modes.redeem(id, client, session, mode)).toBe(false);
    expect(modes.redeem(id, A, S1, 'bypass')).toBe(false);
  });

  it('refuses a ticket after its time is up, and accepts it until then', () => {
    const clock = manualClock();
    const modes = new PermissionModes(clock.now);
    const early = modes.issue(A, S1, 'bypass');
    clock.advance(MODE_CONFIRMATION_TTL_MS);
    expect(modes.redeem(early, A, S1, 'bypass')).toBe(true);
    const late = modes.issue(A, S1, 'bypass');
    clock.advance(MODE_CONFIRMATION_TTL_MS + 1);
    expect(modes.redeem(late, A, S1, 'bypass')).toBe(false);
  });

  it('keeps only the latest warning of a window, and voids the tickets of a closed session', () => {
    const modes = new PermissionModes();
    const first = modes.issue(A, S1, 'accept-edits');
    const second = modes.issue(A, S1, 'bypass');
    const other = modes.issue(B, S2, 'bypass');
    expect(modes.redeem(first, A, S1, 'accept-edits')).toBe(false);
    modes.forgetTickets(S1);
    expect(modes.redeem(second, A, S1, 'bypass')).toBe(false);
    expect(modes.redeem(other, B, S2, 'bypass')).toBe(true);
  });
});
