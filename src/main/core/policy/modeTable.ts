// The mode table's rows (src/shared/modeTable.ts, where the window reads them
// too) and the policy's rules over them: which mode every session starts in,
// and which move between modes loosens. Every other rule about modes (what a
// running turn may take, what the model is told) is derived from the rows.
import type { PermissionMode } from '../../../shared/domain';
import { CALL_CLASSES, type ModeRow, type Outcome } from '../../../shared/modeTable';

export { CALL_CLASSES, joinNames, KIND_NAMES, MODE_ROWS, outcomeGroups, type CallClass, type ModeRow, type Outcome } from '../../../shared/modeTable';

/** The mode every session starts in, in every run: nothing looser is ever restored from disk. */
export const INITIAL_MODE: PermissionMode = 'manual';

/** How much an outcome lets run without a person's yes; higher is looser. */
const LOOSENESS: Readonly<Record<Outcome, number>> = { deny: 0, ask: 1, 'allow, shown': 2, allow: 3 };

/** True when some kind of call runs with less of a person's say in `to` than in `from`. */
export function rowLoosens(from: ModeRow, to: ModeRow): boolean {
  return CALL_CLASSES.some((kind) => LOOSENESS[to.outcomes[kind]] > LOOSENESS[from.outcomes[kind]]);
}

/**
 * True for a mode that runs sandboxed commands with less of a person's say
 * than commands with no sandbox to run in (auto): the sandbox is what carries
 * it, so it may be chosen only while one is available.
 */
export function rowNeedsSandbox(row: ModeRow): boolean {
  return LOOSENESS[row.outcomes.bash] > LOOSENESS[row.outcomes.bash_no_sandbox];
}
