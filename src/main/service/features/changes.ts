// Review and undo for a window's session. Undo is the person's own act, taken
// through their window; the service runs it only between turns.
import type { ReversalPlanView, ReversalReportView, ReversalTarget, SessionChangesView } from '../../../shared/changes';
import type { ClientId } from '../clients';
import type { Sessions } from './sessions';

export async function listChanges(sessions: Sessions, client: ClientId): Promise<SessionChangesView> {
  return sessions.require(client).conversation.changesWithCount();
}

export async function planReversal(sessions: Sessions, client: ClientId, target: ReversalTarget): Promise<ReversalPlanView> {
  const { action, ...which } = target;
  return sessions.require(client).conversation.reversalPlan(action, which);
}

export async function reverseChanges(sessions: Sessions, client: ClientId, target: ReversalTarget): Promise<ReversalReportView> {
  const { action, ...which } = target;
  return sessions.require(client).conversation.reverse(action, which);
}
