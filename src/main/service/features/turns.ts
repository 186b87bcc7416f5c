// Turns: a message starts `conversation.ask` in the background and the
// request returns at once; the turn's events stream to the owning client as
// `session:event`, with `session:changed` before the first (busy) and after
// the last (idle). Stop aborts the turn and denies any pending ask. Each
// call is decided under the stricter of the turn's starting mode and the
// session's mode now: a tightening reaches the next call, a loosening waits.
// Retry runs a failed turn again for its saved message (failedTurns.ts).
import { TurnInProgressError, UnacknowledgedResultsError } from '../../core/agent/conversation';
import type { ClientId, ClientRegistry } from '../clients';
import type { ImageRef } from '../../../shared/images';
import { STOPPED_REASON, type ApprovalBroker } from './approvals';
import { DeltaBatcher } from './deltaBatcher';
import type { PermissionModes } from './modes';
import type { OpenSession, RunningTurn } from './openSession';
import { FailedTurns } from './failedTurns';
import type { Sessions } from './sessions';
import { errorText, log } from '../../core/log/log';

export interface TurnDeps {
  clients: ClientRegistry;
  sessions: Sessions;
  modes: PermissionModes;
  broker: ApprovalBroker;
}

/** The message of each session's last turn, while that turn failed after saving it. */
const failedTurns = new FailedTurns();

/** `images`: the message's images, already kept and checked (features/images.ts messageImageRefs). */
export async function sendMessage(deps: TurnDeps, client: ClientId, text: string, images?: ImageRef[]): Promise<{ started: true }> {
  return beginTurn(deps, deps.sessions.require(client), client, { text, images, retry: false });
}

/** Runs the session's failed last turn again: its message is not saved, shown or sent a second time. */
export async function retryTurn(deps: TurnDeps, client: ClientId): Promise<{ started: true }> {
  const session = deps.sessions.require(client);
  if (session.turn) throw new TurnInProgressError();
  const failed = failedTurns.retryable(session);
  return beginTurn(deps, session, client, { ...failed, retry: true });
}

async function beginTurn(deps: TurnDeps, session: OpenSession, client: ClientId, message: { text: string; images?: ImageRef[]; retry: boolean }): Promise<{ started: true }> {
  const { text, images } = message;
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
  const watch = failedTurns.watch(session, message);
  void session.conversation
    .ask(text, {
      mode: () => turn.mode,
      approver: deps.broker.approverFor(session.id, client),
      onEvent: (event) => {
        watch.saw(event);
        batcher.push(event);
      },
      signal: turn.controller.signal,
      ...(images ? { images } : {}),
      ...(message.retry ? { retry: true } : {}),
    })
    .then((outcome) => watch.ended(outcome.status))
    .catch((error: unknown) => {
      // The loop reports its own ends; this is a failure it did not expect, and the window still needs an end.
      const reason = error instanceof Error ? error.message : String(error);
      log.error('turn.unexpected_failure', { session: session.id, error: error instanceof Error ? (error.stack ?? reason) : reason });
      watch.ended('failed');
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
