// What a window does with the answer to "open this session" or "new session".
import type { SessionOpenResult, SessionView } from '../../../../shared/sessions';

/** `new`: a session this window asked to create; `existing`: a saved one it asked to open. */
export type OpenRequest = 'new' | 'existing';

export function elsewhereMessage(sessionId: string, request: OpenRequest): string {
  return request === 'new'
    ? `The new session ${sessionId} opened in its own window.`
    : `Session ${sessionId} is open in another window; that window was brought to the front.`;
}

/** Adopts a session opened here; returns the message to show when it lives elsewhere. */
export function applyOpenResult(result: SessionOpenResult, adopt: (view: SessionView) => void, request: OpenRequest): string | null {
  if (result.where === 'here') {
    adopt(result.session);
    return null;
  }
  return elsewhereMessage(result.sessionId, request);
}
