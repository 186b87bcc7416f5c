// Permission modes of the open sessions, and the person's yes that a
// loosening waits for. The rules (which change loosens, what a running turn
// may take) are the policy's; this module holds the state: modes live here,
// in memory, one store per service (per app run), never saved, so a restart
// starts every session in manual.
//
// The renderer is untrusted, so a loosening never completes on a page's
// say-so: main asks the person itself, in a native dialog showing the mode
// table's warning (the NativeConfirm port), which no page can answer, and
// applies the mode only on that yes. A mode the sandbox carries (auto) is
// refused, with the reason, while no sandbox is available; a session already
// in it when the sandbox goes has its commands ask (core/agent/toolCall.ts). While the dialog is open the session
// holds a ticket for it: one at a time, and void once the session closes, so
// a late yes cannot loosen a session its window has left. Tightening applies
// at once, even to the next call of a running turn.
import type { PermissionMode, SessionId } from '../../../shared/domain';
import type { ModeChangeInput, ModeChangeResult } from '../../../shared/sessions';
import {
  INITIAL_MODE,
  isLoosening,
  MODE_WARNINGS,
  modeMessage,
  modeNeedsSandbox,
  NO_SESSION_MESSAGE,
  noSandboxForModeMessage,
  parseModeName,
  stricterMode,
  unchangedModeMessage,
  unknownModeMessage,
} from '../../core/policy/modes';
import type { SandboxAvailability } from '../../core/sandbox/availability';
import type { ClientId } from '../clients';
import type { NativeConfirm } from '../ports';
import type { OpenSession } from './openSession';
import type { Sessions } from './sessions';

/** A loosening the person is being asked about, in main's dialog. */
interface Ticket {
  mode: PermissionMode;
}

export class PermissionModes {
  private readonly modes = new Map<SessionId, PermissionMode>();
  private readonly tickets = new Map<SessionId, Ticket>();

  /** The session's mode; a session never changed in this run is in the initial mode. */
  get(sessionId: SessionId): PermissionMode {
    return this.modes.get(sessionId) ?? INITIAL_MODE;
  }

  set(sessionId: SessionId, mode: PermissionMode): void {
    this.modes.set(sessionId, mode);
  }

  /** The loosening the session is being asked about, if main's dialog is open for it. */
  asking(sessionId: SessionId): PermissionMode | null {
    return this.tickets.get(sessionId)?.mode ?? null;
  }

  /** Marks the dialog for this loosening open; the session must not have one open already. */
  issue(sessionId: SessionId, mode: PermissionMode): Ticket {
    const ticket = { mode };
    this.tickets.set(sessionId, ticket);
    return ticket;
  }

  /** The dialog closed: true when its answer may still apply (the session did not close meanwhile). */
  redeem(sessionId: SessionId, ticket: Ticket): boolean {
    if (this.tickets.get(sessionId) !== ticket) return false;
    this.tickets.delete(sessionId);
    return true;
  }

  /** The session closed: a dialog still open for it can no longer change its mode. Its mode stays for this run. */
  forgetTickets(sessionId: SessionId): void {
    this.tickets.delete(sessionId);
  }
}

export interface ModeDeps {
  sessions: Sessions;
  modes: PermissionModes;
  /** Main's own yes/no dialog; without it no loosening can be confirmed. */
  confirm: NativeConfirm | undefined;
  /** Whether commands run in the sandbox now (the person's setting, then the machine): a mode the sandbox carries needs it. */
  sandbox: () => Promise<SandboxAvailability>;
}

/** `mode:set`: the window's own session only; a loosening waits for the person's yes in main; a change also reaches its running turn. */
export async function setPermissionMode(deps: ModeDeps, client: ClientId, input: ModeChangeInput): Promise<ModeChangeResult> {
  const session = deps.sessions.ownedBy(client);
  if (!session) throw new Error(NO_SESSION_MESSAGE);
  const from = deps.modes.get(session.id);
  const to = parseModeName(input.mode);
  if (to === null) return { status: 'error', mode: from, message: unknownModeMessage(input.mode, from) };
  if (to === from) return { status: 'unchanged', mode: from, message: unchangedModeMessage(from) };
  if (modeNeedsSandbox(to)) {
    const sandbox = await deps.sandbox();
    if (!sandbox.available) return { status: 'error', mode: from, message: `${noSandboxForModeMessage(to, sandbox.reason)} ${unchangedModeMessage(from)}` };
  }
  if (isLoosening(from, to)) {
    const refusal = await confirmLoosening(deps, client, session.id, from, to);
    if (refusal !== null) return refusal;
  }
  deps.modes.set(session.id, to);
  await deps.sessions.changed(session);
  return { status: 'changed', mode: to, message: `${modeMessage(to)}${tightenRunningTurn(session, to)}` };
}

/** Null once the person said yes in main's dialog; otherwise what the window is told, the mode unchanged. */
async function confirmLoosening(
  deps: ModeDeps,
  client: ClientId,
  sessionId: SessionId,
  from: PermissionMode,
  to: PermissionMode,
): Promise<ModeChangeResult | null> {
  const kept = (status: 'unchanged' | 'error', why: string): ModeChangeResult => {
    const mode = deps.modes.get(sessionId);
    return { status, mode, message: `${why} ${unchangedModeMessage(mode)}` };
  };
  const asking = deps.modes.asking(sessionId);
  if (asking !== null) {
    return kept('error', `Mino is already asking you, in its own dialog, whether to switch this session to ${asking} mode: answer it there first.`);
  }
  if (deps.confirm === undefined) return kept('error', `Mino cannot ask you here to confirm ${to} mode, so it was not applied.`);

  const ticket = deps.modes.issue(sessionId, to);
  let yes: boolean;
  try {
    yes = await deps.confirm(client, {
      title: 'Loosen the permission mode?',
      message: `Switch this session to ${to} mode?`,
      detail: `${MODE_WARNINGS[to]}\n\nIf you cancel, the session stays in ${from}.`,
      confirmLabel: `Switch to ${to}`,
    });
  } catch (error) {
    deps.modes.redeem(sessionId, ticket);
    throw error;
  }
  if (!deps.modes.redeem(sessionId, ticket)) {
    // The window left the session while the dialog was open; it may show another one now.
    const shown = deps.sessions.ownedBy(client);
    return { status: 'unchanged', mode: deps.modes.get(shown?.id ?? sessionId), message: `The session closed before you answered, so ${to} mode was not applied to it.` };
  }
  return yes ? null : kept('unchanged', `You did not confirm ${to} mode.`);
}

/**
 * A running turn's mode only ratchets tighter: a tightening applies from its
 * next tool call, anything else (even back to where it started) from the next
 * message. Returns what that means, for the person.
 */
function tightenRunningTurn(session: OpenSession, mode: PermissionMode): string {
  const running = session.turn;
  if (!running) return '';
  running.mode = stricterMode(running.mode, mode);
  if (running.mode === mode) return ' The running turn uses it from its next tool call.';
  return ` The running turn stays in ${running.mode} until it ends; ${mode} applies from your next message.`;
}
