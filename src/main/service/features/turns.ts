// Turns: a message starts `conversation.ask` in the background and the
// request returns at once; the turn's events stream to the owning client as
// `session:event`, with `session:changed` before the first (busy) and after
// the last (idle). Stop aborts the turn and denies any pending ask. Each
// call is decided under the stricter of the turn's starting mode and the
// session's mode now: a tightening reaches the next call, a loosening waits.
import { TurnInProgressError, UnacknowledgedResultsError } from '../../core/agent/conversation';
import type { ClientId, ClientRegistry } from '../clients';
import { STOPPED_REASON, type ApprovalBroker } from './approvals';
import { DeltaBatcher } from './deltaBatcher';
import type { PermissionModes } from './modes';
import type { RunningTurn } from './openSession';
import type { Sessions } from './sessions';
import { errorText, log } from '../../core/log/log';

export interface TurnDeps {
  clients: ClientRegistry;
  sessions: Sessions;
  modes: PermissionModes;
  broker: ApprovalBroker;
}

export async function sendMessage(deps: TurnDeps, client: ClientId, text: string): Promise<{ started: true }> {
  const session = deps.sessions.require(client);
  if (session.turn) throw new TurnInProgressError();
  if (session.conversation.unknownCalls.length > 0) throw new UnacknowledgedResultsError([...session.conversation.unknownCalls]);

  let turnEnded!: () => void;
  const turn: RunningTurn = {
    controller: new AbortController(),
    mode: deps.modes.get(session.id),
    done: new Promise<void>((resolve) => (turnEnded = resolve)),
  };
  // Claimed before anything is awaited, so a second message in the meantime is refused.
  session.turn = turn;
  const release = () => {
    if (session.turn === turn) session.turn = null;
    turnEnded();
  };
  // Noted before the window hears the session is busy, so an untitled session is named by its
  // first question from the start of that turn (header, sidebar, window title), not only at its end.
  const unnamed = session.firstQuestion === null;
  deps.sessions.noteQuestion(session, text);
  try {
    await deps.sessions.changed(session);
  } catch (error) {
    // Nothing was sent to the model: give the claim and the name back, or the session would stay busy for good.
    if (unnamed) session.firstQuestion = null;
    release();
    throw error;
  }
  if (!deps.sessions.isOpen(session)) {
    release();
    throw new Error('The session closed before the message was sent.');
  }

  const batcher = new DeltaBatcher((event) => deps.clients.emitTo(client, 'session:event', { sessionId: session.id, event }));
  void session.conversation
    .ask(text, {
      mode: () => turn.mode,
      approver: deps.broker.approverFor(session.id, client),
      onEvent: (event) => batcher.push(event),
      signal: turn.controller.signal,
    })
    .catch((error: unknown) => {
      // The loop reports its own ends; this is a failure it did not expect, and the window still needs an end.
      const reason = error instanceof Error ? error.message : String(error);
      log.error('turn.unexpected_failure', { session: session.id, error: error instanceof Error ? (error.stack ?? reason) : reason });
      batcher.push({ type: 'turn_end', status: 'failed', message: `The turn failed unexpectedly: ${reason}. Send your message again; if this keeps happening, restart Mino.` });
    })
    .then(async () => {
      batcher.flush();
      session.turn = null;
      if (deps.sessions.isOpen(session)) await deps.sessions.changed(session);
    })
    .catch((error: unknown) => log.warn('turn.end_report_failed', { session: session.id, error: errorText(error) }))
    .finally(() => turnEnded());
  return { started: true };
}

/** Aborts the client's running turn; `stopped: false` when none was running. */
export function stopTurn(deps: TurnDeps, client: ClientId): { stopped: boolean } {
  const session = deps.sessions.require(client);
  if (!session.turn) return { stopped: false };
  session.turn.controller.abort();
  deps.broker.denyAll(session.id, STOPPED_REASON);
  return { stopped: true };
}
