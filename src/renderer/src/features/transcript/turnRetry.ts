// Retry of a failed turn, offered on the turn's own card in the transcript:
// the session screen provides which turn end may be retried (the last one,
// failed, with no turn running) and how; the card reads it.
import { createContext } from 'react';

export interface TurnRetry {
  /** The key of the turn end Retry belongs to; null when nothing can be retried now. */
  key: string | null;
  /** A retry was asked for and is being started. */
  starting: boolean;
  retry(): void;
}

export const TurnRetryContext = createContext<TurnRetry>({ key: null, starting: false, retry: () => undefined });
