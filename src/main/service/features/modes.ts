// Permission modes of the open sessions, and the one-time tickets that tie a
// loosening to the warning the service showed. The rules (which change
// loosens, what a running turn may take) are the policy's; this module holds
// the state: modes live here, in memory, one store per service (per app run),
// never saved, so a restart starts every session in manual.
//
// Loosening takes two requests: the first shows the warning and issues a
// ticket; the second must bring that ticket back, for the same window,
// session and mode, once, within a short while: no replay, no stale or
// cross-window confirmation, no loosening without the warning having been
// sent. It cannot prove a person read it: the window that shows the warning
// is the one that answers, as with approvals. Tightening applies at once,
// even to the next call of a running turn.
import { randomUUID } from 'node:crypto';
import type { PermissionMode, SessionId } from '../../../shared/domain';
import type { ModeChangeResult } from '../../../shared/sessions';
import {
  INITIAL_MODE,
  isLoosening,
  MODE_WARNINGS,
  modeMessage,
  NO_SESSION_MESSAGE,
  parseModeName,
  stricterMode,
  unchangedModeMessage,
  unknownModeMessage,
} from '../../core/policy/modes';
import type { ClientId } from '../clients';
import type { OpenSession } from './openSession';
import type { Sessions } from './sessions';

/** Long enough to read the warning; short enough that a forgotten dialog does not loosen later. */
export const MODE_CONFIRMATION_TTL_MS = 2 * 60_000;

export const STALE_CONFIRMATION_MESSAGE =
  'This mode change was not confirmed in this window, or its confirmation expired or was already used. Choose the mode again and confirm the warning.';

export interface ModeChangeRequest {
  mode: string;
  /** The ticket the service issued with its warning for this mode. */
  confirmationId?: string | undefined;
}

interface Ticket {
  client: ClientId;
  sessionId: SessionId;
  mode: PermissionMode;
  expiresAt: number;
}

export class PermissionModes {
  private readonly modes = new Map<SessionId, PermissionMode>();
  private readonly tickets = new Map<string, Ticket>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = MODE_CONFIRMATION_TTL_MS,
  ) {}

  /** The session's mode; a session never changed in this run is in the initial mode. */
  get(sessionId: SessionId): PermissionMode {
    return this.modes.get(sessionId) ?? INITIAL_MODE;
  }

  /** A window's request to change its session's mode; changes it only when the rules allow. */
  request(client: ClientId, sessionId: SessionId, input: ModeChangeRequest): ModeChangeResult {
    const from = this.get(sessionId);
    const to = parseModeName(input.mode);
    // Any ticket sent is used up, whatever this request turns out to be.
    const redeemed = input.confirmationId !== undefined && to !== null && this.redeem(input.confirmationId, client, sessionId, to);
    if (to === null) return { status: 'error', mode: from, message: unknownModeMessage(input.mode, from) };
    if (to === from) return { status: 'unchanged', mode: from, message: unchangedModeMessage(from) };
    if (isLoosening(from, to) && !redeemed) {
      if (input.confirmationId !== undefined) {
        return { status: 'error', mode: from, message: `${STALE_CONFIRMATION_MESSAGE} ${unchangedModeMessage(from)}` };
      }
      return {
        status: 'needs_confirmation',
        mode: from,
        message: `Switch this session to ${to}? Permission mode for this session unchanged until you confirm: ${from}.`,
        warning: MODE_WARNINGS[to],
        confirmationId: this.issue(client, sessionId, to),
      };
    }
    // Tightening never asks; a loosening reaches here only with a redeemed ticket, which is the person's yes.
    this.modes.set(sessionId, to);
    return { status: 'changed', mode: to, message: modeMessage(to) };
  }

  /** The session closed: a warning shown for it can no longer be answered. Its mode stays for this run. */
  forgetTickets(sessionId: SessionId): void {
    for (const [id, ticket] of this.tickets) if (ticket.sessionId === sessionId) this.tickets.delete(id);
  }

  /** A new ticket for this warning. A window has at most one: an earlier warning it was shown is void. */
  issue(client: ClientId, sessionId: SessionId, mode: PermissionMode): string {
    const now = this.now();
    for (const [id, ticket] of this.tickets) if (ticket.client === client || now > ticket.expiresAt) this.tickets.delete(id);
    const id = randomUUID();
    this.tickets.set(id, { client, sessionId, mode, expiresAt: now + this.ttlMs });
    return id;
  }

  /** Uses up the ticket; true only if it was issued to this window, for this session and mode, and has not expired. */
  redeem(id: string, client: ClientId, sessionId: SessionId, mode: PermissionMode): boolean {
    const ticket = this.tickets.get(id);
    if (!ticket) return false;
    this.tickets.delete(id);
    return ticket.client === client && ticket.sessionId === sessionId && ticket.mode === mode && this.now() <= ticket.expiresAt;
  }
}

export interface ModeDeps {
  sessions: Sessions;
  modes: PermissionModes;
}

/** `mode:set`: the window's own session only; a change also reaches its running turn. */
export async function setPermissionMode(deps: ModeDeps, client: ClientId, input: ModeChangeRequest): Promise<ModeChangeResult> {
  const session = deps.sessions.ownedBy(client);
  if (!session) throw new Error(NO_SESSION_MESSAGE);
  const result = deps.modes.request(client, session.id, input);
  if (result.status !== 'changed') return result;
  await deps.sessions.changed(session);
  return { ...result, message: `${result.message}${tightenRunningTurn(session, result.mode)}` };
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
