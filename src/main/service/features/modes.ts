// Permission mode changes for a client's session. Modes live in one
// SessionModes per service (per app run): never saved, so a restart is manual
// everywhere. Loosening needs a second request with `confirmed: true` after
// the person saw the warning; tightening applies at once.
import { NO_SESSION_MESSAGE, type SessionModes } from '../../core/policy/modes';
import type { ModeChangeResult } from '../../../shared/sessions';
import type { ClientId } from '../clients';
import type { Sessions } from './sessions';

export interface ModeDeps {
  sessions: Sessions;
  modes: SessionModes;
}

export async function setPermissionMode(deps: ModeDeps, client: ClientId, input: { mode: string; confirmed: boolean }): Promise<ModeChangeResult> {
  const session = deps.sessions.ownedBy(client);
  if (!session) throw new Error(NO_SESSION_MESSAGE);
  let warning: string | undefined;
  const change = await deps.modes.change(session.id, input.mode, async (shown) => {
    warning = shown;
    return input.confirmed;
  });
  const current = deps.modes.get(session.id);
  switch (change.status) {
    case 'error':
      return { status: 'error', mode: current, message: change.message };
    case 'unchanged':
      if (warning !== undefined && !input.confirmed) {
        return { status: 'needs_confirmation', mode: current, message: `Switch this session to ${input.mode.trim()}? ${change.message}`, warning };
      }
      return { status: 'unchanged', mode: current, message: change.message };
    case 'changed': {
      const running = session.turn;
      const message = running
        ? `${change.message} The running turn keeps ${running.mode}; the new mode applies from your next message.`
        : change.message;
      await deps.sessions.changed(session);
      return { status: 'changed', mode: change.mode, message };
    }
  }
}
