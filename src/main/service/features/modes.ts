// Permission mode changes for a client's session. Modes live in one
// SessionModes per service (per app run): never saved, so a restart is manual
// everywhere. Loosening takes two requests: the first shows the warning and
// issues a one-time confirmation id, the second must bring that id back.
// Tightening applies at once, even to the next call of a running turn.
import { isLoosening, MODE_WARNINGS, NO_SESSION_MESSAGE, parseModeName, stricterMode, type SessionModes } from '../../core/policy/modes';
import type { PermissionMode } from '../../../shared/domain';
import type { ModeChangeResult } from '../../../shared/sessions';
import type { ClientId } from '../clients';
import type { OpenSession, Sessions } from './sessions';

export interface ModeDeps {
  sessions: Sessions;
  modes: SessionModes;
}

export interface ModeChangeRequest {
  mode: string;
  /** The id the service issued with its warning for this mode. */
  confirmationId?: string | undefined;
  /** Claimed by the window; not proof that the person saw the warning. */
  confirmed?: boolean | undefined;
}

export const STALE_CONFIRMATION_MESSAGE =
  'This mode change was not confirmed in this window, or its confirmation expired or was already used. Choose the mode again and confirm the warning.';

const refuse = (mode: PermissionMode, message: string): ModeChangeResult => ({ status: 'error', mode, message });

export async function setPermissionMode(deps: ModeDeps, client: ClientId, input: ModeChangeRequest): Promise<ModeChangeResult> {
  const session = deps.sessions.ownedBy(client);
  if (!session) throw new Error(NO_SESSION_MESSAGE);
  const confirmations = deps.sessions.modeConfirmations;
  const from = deps.modes.get(session.id);
  const to = parseModeName(input.mode);
  // Any id sent is used up, whatever this request turns out to be.
  const redeemed = input.confirmationId !== undefined && to !== null && confirmations.redeem(input.confirmationId, client, session.id, to);

  if (to !== null && to !== 'manual' && isLoosening(from, to) && !redeemed) {
    if (input.confirmationId !== undefined || input.confirmed === true) {
      return refuse(from, `${STALE_CONFIRMATION_MESSAGE} Permission mode for this session unchanged: ${from}.`);
    }
    return {
      status: 'needs_confirmation',
      mode: from,
      message: `Switch this session to ${to}? Permission mode for this session unchanged until you confirm: ${from}.`,
      warning: MODE_WARNINGS[to],
      confirmationId: confirmations.issue(client, session.id, to),
    };
  }

  // Tightening never asks; a loosening reaches here only with a redeemed id, which is the person's yes.
  const change = await deps.modes.change(session.id, input.mode, async () => redeemed);
  const current = deps.modes.get(session.id);
  switch (change.status) {
    case 'error':
      return refuse(current, change.message);
    case 'unchanged':
      return { status: 'unchanged', mode: current, message: change.message };
    case 'changed':
      await deps.sessions.changed(session);
      return { status: 'changed', mode: change.mode, message: `${change.message}${tightenRunningTurn(session, change.mode)}` };
  }
}

/**
 * A running turn's mode only ratchets tighter: a tightening applies from its
 * next tool call, a loosening (even back to where it started) from the next
 * message. Returns what that means, for the person.
 */
function tightenRunningTurn(session: OpenSession, mode: PermissionMode): string {
  const running = session.turn;
  if (!running) return '';
  running.mode = stricterMode(running.mode, mode);
  if (running.mode === mode) return ' The running turn uses it from its next tool call.';
  return ` The running turn stays in ${running.mode} until it ends; ${mode} applies from your next message.`;
}
