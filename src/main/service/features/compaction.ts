// Compaction the person asks for: summarize the window's session's earlier
// turns now, or save their rewrite of the summary. Compacting holds the
// session like a turn (busy, stoppable with `turn:stop`), since it is a model
// request; the resulting `compaction` event reaches the window like a turn's.
import type { CompactionEvent } from '../../../shared/sessions';
import { TurnInProgressError } from '../../core/agent/conversation';
import type { ClientId, ClientRegistry } from '../clients';
import type { PermissionModes } from './modes';
import type { OpenSession, RunningTurn } from './openSession';
import type { Sessions } from './sessions';

export interface CompactionDeps {
  clients: ClientRegistry;
  sessions: Sessions;
  modes: PermissionModes;
}

export async function compactSession(deps: CompactionDeps, client: ClientId): Promise<CompactionEvent> {
  const session = deps.sessions.require(client);
  return holding(deps, session, (signal) => session.conversation.compact({ signal }));
}

export async function editSummary(deps: CompactionDeps, client: ClientId, text: string): Promise<CompactionEvent> {
  const session = deps.sessions.require(client);
  return holding(deps, session, () => session.conversation.editSummary(text));
}

/** Runs `work` with the session claimed as busy, then reports its event and the idle session to the window. */
async function holding(deps: CompactionDeps, session: OpenSession, work: (signal: AbortSignal) => Promise<CompactionEvent>): Promise<CompactionEvent> {
  if (session.turn) throw new TurnInProgressError();
  let ended!: () => void;
  const turn: RunningTurn = { controller: new AbortController(), mode: deps.modes.get(session.id), done: new Promise<void>((resolve) => (ended = resolve)) };
  // Claimed before anything is awaited, so a message sent meanwhile is refused.
  session.turn = turn;
  try {
    await deps.sessions.changed(session);
    const event = await work(turn.controller.signal);
    if (deps.sessions.isOpen(session)) deps.clients.emitTo(session.client, 'session:event', { sessionId: session.id, event });
    return event;
  } finally {
    if (session.turn === turn) session.turn = null;
    ended();
    if (deps.sessions.isOpen(session)) await deps.sessions.changed(session);
  }
}
