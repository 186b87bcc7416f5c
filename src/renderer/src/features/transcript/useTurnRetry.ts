// What the failed turn's card needs to offer Retry: which turn end it is and
// the request that runs that turn again (turn:retry), whose failure is told
// in the window's message line.
import { useCallback, useState } from 'react';
import { api, errorMessage } from '../../lib/api';
import type { TranscriptState } from './transcriptModel';
import type { TurnRetry } from './turnRetry';

export function useTurnRetry(busy: boolean, lastEnd: TranscriptState['lastEnd'], onMessage: (message: string | null, isError?: boolean) => void): TurnRetry {
  const [starting, setStarting] = useState(false);
  const key = !busy && lastEnd?.status === 'failed' ? lastEnd.key : null;
  const retry = useCallback(() => {
    setStarting(true);
    onMessage(null);
    api.retryTurn().then(
      () => setStarting(false),
      (failure: unknown) => {
        setStarting(false);
        onMessage(errorMessage(failure), true);
      },
    );
  }, [onMessage]);
  return { key, starting, retry };
}
