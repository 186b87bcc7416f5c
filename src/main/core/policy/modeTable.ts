// Table 10-1 of the book, one row per permission mode: what a call of each
// tool kind that is not refused does in that mode, and the warning a person
// accepts before moving to it. Every other rule about modes (which change
// loosens, what a running turn may take, what the model is told) is derived
// from these rows, so a mode that is neither looser nor tighter than another
// (a read-only plan mode, say) is one more row. A new mode or tool kind makes
// the compiler demand its row or cell.
import type { PermissionMode, ToolKind } from '../../../shared/domain';

/**
 * What the table judges: a tool's kind, or a bash call that asked to run
 * outside the sandbox, which runs with the person's full rights and so is a
 * column of its own (it asks in every mode, bypass included).
 */
export type CallClass = ToolKind | 'unsandboxed_bash';

/** What a call that passed the protected-path check does: refused, asked, allowed but shown, or allowed. */
export type Outcome = 'deny' | 'ask' | 'allow, shown' | 'allow';

export interface ModeRow {
  readonly outcomes: Readonly<Record<CallClass, Outcome>>;
  /** Shown, with a yes/no question, before a session moves to this mode from one it loosens. */
  readonly warning: string;
}

export const MODE_ROWS: Readonly<Record<PermissionMode, ModeRow>> = {
  manual: {
    outcomes: { restricted_read: 'allow', file_write: 'ask', bash: 'ask', unsandboxed_bash: 'ask', mcp: 'ask' },
    warning: 'In this session, manual mode asks before every write, edit, Bash command and MCP call. Protected files stay refused.',
  },
  'accept-edits': {
    outcomes: { restricted_read: 'allow', file_write: 'allow, shown', bash: 'ask', unsandboxed_bash: 'ask', mcp: 'ask' },
    warning:
      'In this session, accept-edits mode writes and edits project files without asking. Bash and MCP calls still ask; protected files stay refused.',
  },
  bypass: {
    outcomes: { restricted_read: 'allow', file_write: 'allow, shown', bash: 'allow, shown', unsandboxed_bash: 'ask', mcp: 'allow, shown' },
    warning:
      'In this session, bypass mode runs every call without asking: Bash commands run in the sandbox where this machine has one (else with your account permissions; a command that asks to leave the sandbox still asks), and MCP arguments go to their services. Protected files stay refused.',
  },
};

/** The mode every session starts in, in every run: nothing looser is ever restored from disk. */
export const INITIAL_MODE: PermissionMode = 'manual';

/** How much an outcome lets run without a person's yes; higher is looser. */
const LOOSENESS: Readonly<Record<Outcome, number>> = { deny: 0, ask: 1, 'allow, shown': 2, allow: 3 };

/** How each kind of call is named to a person and to the model. */
export const KIND_NAMES: Readonly<Record<CallClass, string>> = {
  restricted_read: 'restricted reads',
  file_write: 'file writes and edits',
  bash: 'Bash commands',
  unsandboxed_bash: 'Bash commands outside the sandbox',
  mcp: 'MCP calls',
};

export const CALL_CLASSES = Object.keys(KIND_NAMES) as CallClass[];

/** True when some kind of call runs with less of a person's say in `to` than in `from`. */
export function rowLoosens(from: ModeRow, to: ModeRow): boolean {
  return CALL_CLASSES.some((kind) => LOOSENESS[to.outcomes[kind]] > LOOSENESS[from.outcomes[kind]]);
}
