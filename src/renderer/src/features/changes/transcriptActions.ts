// What the transcript's cards and messages can do besides showing: undo a
// turn's changes from its card, and continue the session from one of the
// person's messages (Edit and resend). The session screen provides it; a
// transcript shown without it (nothing to act on) offers neither.
import { createContext, useContext } from 'react';
import type { SessionView } from '../../../../shared/sessions';

export interface TranscriptActions {
  /** A turn runs: nothing is offered until it ends. */
  busy: boolean;
  /** The session's changes changed (an undo in a card): read them again. */
  refreshChanges(): void;
  /** The place of the person's message with this transcript key among those shown (from 0); null for another item. */
  messageIndex(key: string): number | null;
  /** How many of the person's messages the transcript shows. */
  shownMessages: number;
  /** Another session is this window's now (a fork): show it. */
  adopt(view: SessionView): void;
  /** A line for the window's message area (errors flagged). */
  notify(message: string | null, isError?: boolean): void;
}

export const TranscriptActionsContext = createContext<TranscriptActions | null>(null);

export function useTranscriptActions(): TranscriptActions | null {
  return useContext(TranscriptActionsContext);
}
