// What each turn changed, from the session's records: the changes its file
// tools recorded (whether each is in place or undone now), and how many
// calls it made whose changes cannot be known (bash, MCP). Pure: records in,
// turns out; the kept contents are read separately (changeSummary.ts).
import type { ToolStatus } from '../../../shared/domain';
import type { ChangeImage, SessionRecord } from '../sessions/records';

export interface TrackedChange {
  changeId: string;
  callId: string;
  toolName: string;
  path: string;
  before: ChangeImage;
  after: ChangeImage;
  /** `undone`: an undo restored `before`; `applied`: `after` is what the tool (or a redo) left. */
  state: 'applied' | 'undone';
}

export interface TurnChanges {
  /** 1 for the session's first question, counted over the whole log (also before a clear). */
  turn: number;
  question: string;
  changes: TrackedChange[];
  /** Calls of tools whose changes Mino cannot know (bash, MCP) that ran in this turn. */
  untrackedCalls: number;
}

export type ChangeRecord = Extract<SessionRecord, { type: 'change' }>;

/** A reversal the log shows as begun but not ended: a crash or a stop came in between. */
export interface OpenReversal {
  reversalId: string;
  action: 'undo' | 'redo';
  changeIds: string[];
  /** The changes it has already handled. */
  done: Set<string>;
}

export interface SessionChanges {
  turns: TurnChanges[];
  /** Every question the log holds, with changes or not (turn numbers run from 1 to this). */
  turnCount: number;
  open: OpenReversal | null;
}

/** A change counts once the write may have happened: its call completed, or its outcome is unknown. */
const WRITE_MAY_HAVE_HAPPENED: ReadonlySet<ToolStatus | 'running'> = new Set(['completed', 'unknown', 'running']);

export function sessionChanges(records: readonly SessionRecord[], untracked: (toolName: string) => boolean): SessionChanges {
  const turns: TurnChanges[] = [];
  const callNames = new Map<string, string>();
  const status = new Map<string, ToolStatus | 'running'>();
  const changes = new Map<string, TrackedChange & { turn: TurnChanges }>();
  const reversals = new Map<string, OpenReversal>();
  let current: TurnChanges | null = null;

  for (const record of records) {
    switch (record.type) {
      case 'user':
        current = { turn: turns.length + 1, question: record.text, changes: [], untrackedCalls: 0 };
        turns.push(current);
        break;
      case 'response':
        for (const item of record.output) if (item.type === 'function_call') callNames.set(item.call_id, item.name);
        break;
      case 'tool_start':
        status.set(record.call_id, 'running');
        if (current && untracked(record.name)) current.untrackedCalls += 1;
        break;
      case 'tool_result':
        status.set(record.call_id, record.status);
        break;
      case 'change':
        if (!current) break;
        changes.set(record.change_id, {
          changeId: record.change_id,
          callId: record.call_id,
          toolName: callNames.get(record.call_id) ?? 'unknown tool',
          path: record.path,
          before: record.before,
          after: record.after,
          state: 'applied',
          turn: current,
        });
        break;
      case 'reversal_start':
        reversals.set(record.reversal_id, { reversalId: record.reversal_id, action: record.action, changeIds: record.change_ids, done: new Set() });
        break;
      case 'reversal_step': {
        const reversal = reversals.get(record.reversal_id);
        reversal?.done.add(record.change_id);
        const change = changes.get(record.change_id);
        if (reversal && change && record.outcome === 'restored') change.state = reversal.action === 'undo' ? 'undone' : 'applied';
        break;
      }
      case 'reversal_end':
        reversals.delete(record.reversal_id);
        break;
      default:
        break;
    }
  }

  for (const { turn, ...change } of changes.values()) {
    if (WRITE_MAY_HAVE_HAPPENED.has(status.get(change.callId) ?? 'running')) turn.changes.push(change);
  }
  const open = [...reversals.values()].at(-1) ?? null;
  return { turns: turns.filter((turn) => turn.changes.length > 0 || turn.untrackedCalls > 0), turnCount: turns.length, open };
}
