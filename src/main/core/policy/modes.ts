// Per-session permission modes, held in memory only. Nothing here is ever
// written to disk or to a session log, so a loosened mode exists only because
// a person chose it in this run: a new SessionModes (a restart) is all manual.
import { PERMISSION_MODES, type PermissionMode, type SessionId } from '../../../shared/domain';

/** Shown, with a yes/no question, before a session moves to a looser mode. */
export const MODE_WARNINGS: Readonly<Record<Exclude<PermissionMode, 'manual'>, string>> = {
  'accept-edits':
    'In this session, accept-edits mode writes and edits project files without asking. Bash and MCP calls still ask; protected files stay refused.',
  bypass:
    'In this session, bypass mode runs every call without asking: Bash commands run with your account permissions, and MCP arguments go to their services. Protected files stay refused.',
};

export const modeMessage = (mode: PermissionMode): string => `Permission mode for this session: ${mode}.`;
export const unchangedModeMessage = (mode: PermissionMode): string => `Permission mode for this session unchanged: ${mode}.`;
export const NO_SESSION_MESSAGE = 'Select a session before changing its permission mode';

const MODE_LIST = 'manual, accept-edits or bypass';

/** True when `to` lets more calls run without asking than `from`. */
export function isLoosening(from: PermissionMode, to: PermissionMode): boolean {
  return PERMISSION_MODES.indexOf(to) > PERMISSION_MODES.indexOf(from);
}

/**
 * The mode that asks before more calls. A running turn decides each call under
 * the stricter of the mode it started with and the session's mode now, so a
 * person can tighten before the next call but cannot loosen a turn already running.
 */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  return isLoosening(a, b) ? a : b;
}

/** Parses a person's mode name; anything but exactly one known name is refused. */
export function parseModeName(requested: string): PermissionMode | null {
  const name = requested.trim();
  return (PERMISSION_MODES as readonly string[]).includes(name) ? (name as PermissionMode) : null;
}

export type ModeChange =
  | { status: 'changed'; mode: PermissionMode; message: string }
  | { status: 'unchanged'; mode: PermissionMode; message: string }
  | { status: 'error'; mode: PermissionMode | null; message: string };

/** Asks the person to accept a warning; only an explicit yes resolves true. */
export type ConfirmLoosening = (warning: string) => Promise<boolean>;

export class SessionModes {
  private readonly modes = new Map<SessionId, PermissionMode>();

  /** The session's mode; a session never changed in this run is manual. */
  get(sessionId: SessionId): PermissionMode {
    return this.modes.get(sessionId) ?? 'manual';
  }

  /**
   * A person's request to change the mode. Loosening shows the mode's warning
   * through `confirm` and changes only on an explicit yes; tightening never asks.
   */
  async change(sessionId: SessionId | null | undefined, requested: string, confirm: ConfirmLoosening): Promise<ModeChange> {
    if (!sessionId) return { status: 'error', mode: null, message: NO_SESSION_MESSAGE };
    const from = this.get(sessionId);
    const to = parseModeName(requested);
    if (to === null) {
      const shown = requested.trim();
      const message = shown === ''
        ? `Name a permission mode: ${MODE_LIST}. ${modeMessage(from)}`
        : `Unknown permission mode "${shown}". Use ${MODE_LIST}. ${unchangedModeMessage(from)}`;
      return { status: 'error', mode: from, message };
    }
    if (to === from) return { status: 'unchanged', mode: from, message: unchangedModeMessage(from) };

    if (to !== 'manual' && isLoosening(from, to)) {
      let approved = false;
      try {
        approved = (await confirm(MODE_WARNINGS[to])) === true;
      } catch {
        approved = false;
      }
      if (!approved) {
        const current = this.get(sessionId);
        return { status: 'unchanged', mode: current, message: unchangedModeMessage(current) };
      }
    }
    this.modes.set(sessionId, to);
    return { status: 'changed', mode: to, message: modeMessage(to) };
  }

}
