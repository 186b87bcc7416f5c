// Table 10-1 of the book, one row per permission mode: what a call of each
// tool kind that is not refused does in that mode, and the warning a person
// accepts before moving to it. Every rule about modes (which change loosens,
// what a running turn may take: core/policy) and everything said about them
// (what the model is told, the mode help a person reads in the window) is
// derived from these rows, so what anyone reads cannot drift from what the
// program does. plan, the read-only mode for planning, is one more row: it
// loosens nothing, so moving to it applies at once and leaving it for any
// other mode is a loosening. A new mode or tool kind makes the compiler
// demand its row or cell.
import type { PermissionMode, ToolKind } from './domain';

/**
 * What the table judges: a tool's kind, where `bash` is a command that runs in
 * the sandbox, and two columns of bash calls that run with the person's full
 * rights: `bash_no_sandbox`, a command run where no sandbox is available (none
 * on this machine, or the person turned it off), and `unsandboxed_bash`, a
 * command that asked to leave the sandbox (it asks in every mode, bypass
 * included). Whether a sandbox is available is settled when the call is
 * inspected (see core/agent/toolCall.ts).
 */
export type CallClass = ToolKind | 'bash_no_sandbox' | 'unsandboxed_bash';

/** What a call that passed the protected-path check does: refused, asked, allowed but shown, or allowed. */
export type Outcome = 'deny' | 'ask' | 'allow, shown' | 'allow';

export interface ModeRow {
  readonly outcomes: Readonly<Record<CallClass, Outcome>>;
  /** Shown, with a yes/no question, before a session moves to this mode from one it loosens. */
  readonly warning: string;
  /** Told to the model after the usual words when this mode refuses a call: what to do instead. */
  readonly refusal?: string;
}

export const MODE_ROWS: Readonly<Record<PermissionMode, ModeRow>> = {
  manual: {
    outcomes: { restricted_read: 'allow', file_write: 'ask', bash: 'ask', bash_no_sandbox: 'ask', unsandboxed_bash: 'ask', mcp: 'ask', plan_update: 'allow' },
    warning: 'In this session, manual mode asks before every write, edit, Bash command and MCP call. Protected files stay refused.',
  },
  'accept-edits': {
    outcomes: { restricted_read: 'allow', file_write: 'allow, shown', bash: 'ask', bash_no_sandbox: 'ask', unsandboxed_bash: 'ask', mcp: 'ask', plan_update: 'allow' },
    warning:
      'In this session, accept-edits mode writes and edits project files without asking. Bash and MCP calls still ask; protected files stay refused.',
  },
  auto: {
    outcomes: { restricted_read: 'allow', file_write: 'allow, shown', bash: 'allow, shown', bash_no_sandbox: 'ask', unsandboxed_bash: 'ask', mcp: 'ask', plan_update: 'allow' },
    warning:
      'In this session, auto mode writes and edits project files and runs Bash commands in the sandbox without asking. In the sandbox a command can change the project (not .git/), sees the system read-only and, of your home, only the toolchain folders you allowed; it cannot read secret files and has no network. Commands outside the sandbox (or while it is unavailable) and MCP calls still ask; protected files stay refused.',
  },
  bypass: {
    outcomes: { restricted_read: 'allow', file_write: 'allow, shown', bash: 'allow, shown', bash_no_sandbox: 'allow, shown', unsandboxed_bash: 'ask', mcp: 'allow, shown', plan_update: 'allow' },
    warning:
      'In this session, bypass mode runs every call without asking: Bash commands run in the sandbox where this machine has one (else with your account permissions; a command that asks to leave the sandbox still asks), and MCP arguments go to their services. Protected files stay refused.',
  },
  plan: {
    outcomes: { restricted_read: 'allow', file_write: 'deny', bash: 'deny', bash_no_sandbox: 'deny', unsandboxed_bash: 'deny', mcp: 'deny', plan_update: 'allow' },
    warning:
      'In this session, plan mode only reads, searches and records a plan: writes, edits, Bash commands (in or out of the sandbox) and MCP calls are refused. Protected files stay refused.',
    refusal:
      'Do not retry it or work around this with another tool: plan mode is for planning. Read and search what you need, record the plan with update_plan, then present the plan to the person and end your turn; they choose another mode when they want it carried out.',
  },
};

/** How each kind of call is named to a person and to the model. */
export const KIND_NAMES: Readonly<Record<CallClass, string>> = {
  restricted_read: 'restricted reads',
  file_write: 'file writes and edits',
  bash: 'Bash commands',
  bash_no_sandbox: 'Bash commands while no sandbox is available',
  unsandboxed_bash: 'Bash commands outside the sandbox',
  mcp: 'MCP calls',
  plan_update: 'plan updates',
};

export const CALL_CLASSES = Object.keys(KIND_NAMES) as CallClass[];

/** What each outcome does with a kind of call, as a person is told it. */
const OUTCOME_TEXT: Readonly<Record<Outcome, string>> = {
  allow: 'run',
  'allow, shown': 'run without asking and are shown in the conversation',
  ask: 'ask you first',
  deny: 'are refused',
};

/**
 * A column that is part of another (bash outside the sandbox is bash), named
 * only where it differs from that one. A plan update reads and writes nothing,
 * so it goes with the restricted reads (allowed in every mode, as they are).
 */
const PART_OF: Readonly<Partial<Record<CallClass, CallClass>>> = { bash_no_sandbox: 'bash', unsandboxed_bash: 'bash', plan_update: 'restricted_read' };

/** "a", "a and b", "a, b and c". */
export function joinNames(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The mode's row as groups of kinds of call by outcome, in the table's order
 * of outcomes first met, each kind by its name; a column that is part of
 * another (bash run outside the sandbox) is named only where its outcome
 * differs from that one's.
 */
export function outcomeGroups(mode: PermissionMode): Array<[Outcome, string[]]> {
  const outcomes = MODE_ROWS[mode].outcomes;
  const kindsByOutcome = new Map<Outcome, string[]>();
  for (const kind of CALL_CLASSES) {
    const whole = PART_OF[kind];
    if (whole !== undefined && outcomes[whole] === outcomes[kind]) continue;
    kindsByOutcome.set(outcomes[kind], [...(kindsByOutcome.get(outcomes[kind]) ?? []), KIND_NAMES[kind]]);
  }
  return [...kindsByOutcome];
}

/**
 * The mode's row, told to a person: "accept-edits: restricted reads run; file
 * writes and edits run without asking and are shown in the conversation; Bash
 * commands and MCP calls ask you first. Protected files are refused in every
 * mode." (the protected-path check comes before the table).
 */
export function modeHelp(mode: PermissionMode): string {
  const parts = outcomeGroups(mode).map(([outcome, kinds]) => `${joinNames(kinds)} ${OUTCOME_TEXT[outcome]}`);
  return `${mode}: ${parts.join('; ')}. Protected files are refused in every mode.`;
}
