// "Send now": hands a message to the running turn of the client's session,
// which delivers it before its next model request (core/agent/steeringInbox.ts).
// When no turn takes it, the answer says so and nothing is sent: the window
// keeps the message queued and sends it as the next turn.
import type { SteerResult } from '../../../shared/steering';
import type { ClientId } from '../clients';
import type { Sessions } from './sessions';

export const NO_TURN_TO_STEER =
  'No turn is running in this session, so the message was not sent now. It stays queued and is sent as your next message.';
export const TURN_ENDING =
  'The running turn cannot take the message now (it is still starting, or has made its last model request). It stays queued and is sent as your next message when the turn ends.';

export function steerTurn(sessions: Sessions, client: ClientId, text: string): SteerResult {
  const session = sessions.require(client);
  if (!session.turn) return { steered: false, reason: NO_TURN_TO_STEER };
  if (!session.conversation.steer(text)) return { steered: false, reason: TURN_ENDING };
  return { steered: true };
}
