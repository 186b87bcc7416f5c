// What a window does with the answer to "open this session".
import type { SessionOpenResult, SessionView } from '../../../../shared/sessions';

export function elsewhereMessage(sessionId: string): string {
  return `Session ${sessionId} is already open in another window; that window was brought to the front.`;
}

/** Adopts a session opened here; returns the message to show when it lives elsewhere. */
export function applyOpenResult(result: SessionOpenResult, adopt: (view: SessionView) => void): string | null {
  if (result.where === 'here') {
    adopt(result.session);
    return null;
  }
  return elsewhereMessage(result.sessionId);
}
