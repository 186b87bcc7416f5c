// The pure rules of permission modes, all derived from the rows of
// modeTable.ts. Modes are held in memory by the front end (the service's
// modes feature, the CLI's flag), never saved, so a looser mode exists only
// because a person chose it in this run.
import { MODE_LIST, PERMISSION_MODES, type PermissionMode } from '../../../shared/domain';
import { MODE_ROWS, rowLoosens, rowNeedsSandbox } from './modeTable';

export { INITIAL_MODE, MODE_ROWS } from './modeTable';

/** The warning for each mode, shown before a session moves to it from a mode it loosens. */
export const MODE_WARNINGS: Readonly<Record<PermissionMode, string>> = Object.fromEntries(
  PERMISSION_MODES.map((mode) => [mode, MODE_ROWS[mode].warning]),
) as Record<PermissionMode, string>;

export const modeMessage = (mode: PermissionMode): string => `Permission mode for this session: ${mode}.`;
export const unchangedModeMessage = (mode: PermissionMode): string => `Permission mode for this session unchanged: ${mode}.`;
export const NO_SESSION_MESSAGE = 'Select a session before changing its permission mode';


/** True when some call would run with less of a person's say after moving from `from` to `to`: that move needs their yes. */
export function isLoosening(from: PermissionMode, to: PermissionMode): boolean {
  return rowLoosens(MODE_ROWS[from], MODE_ROWS[to]);
}

/** True for a mode that may be chosen only while a sandbox is available (auto): see rowNeedsSandbox. */
export function modeNeedsSandbox(mode: PermissionMode): boolean {
  return rowNeedsSandbox(MODE_ROWS[mode]);
}

/** Why a mode the sandbox carries cannot be chosen now: `reason` says why no sandbox is available. */
export function noSandboxForModeMessage(mode: PermissionMode, reason: string): string {
  return `${mode} mode runs Bash commands without asking only in the sandbox, and no sandbox is available: ${reason}.`;
}

/**
 * The mode a running turn moves to when the person picks `requested`: it only
 * ever ratchets tighter, so `requested` applies at once when it loosens
 * nothing, and otherwise (looser, or looser for some kind and tighter for
 * another) the turn keeps `running` until it ends.
 */
export function stricterMode(running: PermissionMode, requested: PermissionMode): PermissionMode {
  return isLoosening(running, requested) ? running : requested;
}

/** Parses a person's mode name; anything but exactly one known name is refused. */
export function parseModeName(requested: string): PermissionMode | null {
  const name = requested.trim();
  return (PERMISSION_MODES as readonly string[]).includes(name) ? (name as PermissionMode) : null;
}

/** Why a requested name is not a mode, with what to type instead. */
export function unknownModeMessage(requested: string, current: PermissionMode): string {
  const shown = requested.trim();
  return shown === ''
    ? `Name a permission mode: ${MODE_LIST}. ${modeMessage(current)}`
    : `Unknown permission mode "${shown}". Use ${MODE_LIST}. ${unchangedModeMessage(current)}`;
}
