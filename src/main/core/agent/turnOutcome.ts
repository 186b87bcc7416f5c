// How a turn ended, as the person is told.
import type { TurnEndStatus } from '../../../shared/domain';

export interface TurnOutcome {
  status: TurnEndStatus;
  /** Person-facing explanation for anything but a completed turn. */
  message?: string;
}

/** The person stopped the turn. */
export function stopped(): TurnOutcome {
  return { status: 'aborted', message: 'Stopped. Nothing further runs in this turn; send a new message to continue.' };
}
