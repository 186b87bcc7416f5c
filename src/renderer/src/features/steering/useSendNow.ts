// Send now: hands a queued message to the running turn (turn:steer) and takes
// it out of the queue once the turn says it delivered it; a refusal keeps it
// queued with the reason. Events come straight from the session's stream, in
// the order main sent them, so a delivery is seen before the turn's end.
import { useCallback, useEffect, type Dispatch } from 'react';
import { api, errorMessage } from '../../lib/api';
import type { QueueAction, QueuedMessage } from './messageQueue';

export function useSendNow(dispatch: Dispatch<QueueAction>): (message: QueuedMessage) => Promise<void> {
  useEffect(
    () =>
      api.onSessionEvent(({ event }) => {
        if (event.type === 'steered_message') dispatch({ type: 'delivered', text: event.text });
      }),
    [dispatch],
  );
  return useCallback(
    async (message: QueuedMessage) => {
      dispatch({ type: 'sendNow', id: message.id });
      try {
        const result = await api.steerTurn({ text: message.text });
        if (!result.steered) dispatch({ type: 'steerRefused', id: message.id, reason: result.reason });
      } catch (failure) {
        dispatch({ type: 'steerRefused', id: message.id, reason: errorMessage(failure) });
      }
    },
    [dispatch],
  );
}
