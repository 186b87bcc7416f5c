// What each turn changed, from the session's records: the changes its file
// tools and its captured bash commands recorded (whether each is in place or
// undone now), and how many calls it made whose changes cannot be known (MCP,
// and bash commands whose changes were not all captured). Pure: records in,
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
  /** Calls that ran in this turn whose changes Mino does not know in full: MCP calls, and bash commands not wholly captured. */
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

/**
 * `untracked`: whether a tool's changes may go unrecorded (bash, MCP); its
 * calls count as untracked unless a `capture` record says all their changes
 * were captured.
 */
export function sessionChanges(records: readonly SessionRecord[], untracked: (toolName: string) => boolean): SessionChanges {
  const turns: TurnChanges[] = [];
  const callNames = new Map<string, string>();
  const status = new Map<string, ToolStatus | 'running'>();
  const changes = new Map<string, TrackedChange & { turn: TurnChanges }>();
  const reversals = new Map<string, OpenReversal>();
  const untrackedCalls = new UntrackedCalls();
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
        if (current && untracked(record.name)) untrackedCalls.started(record.call_id, record.name, current);
        break;
      case 'capture':
        untrackedCalls.capture(record.call_id, record.outcome);
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

  untrackedCalls.count(status);
  for (const { turn, ...change } of changes.values()) {
    if (WRITE_MAY_HAVE_HAPPENED.has(status.get(change.callId) ?? 'running')) turn.changes.push(change);
  }
  const open = [...reversals.values()].at(-1) ?? null;
  return { turns: turns.filter((turn) => turn.changes.length > 0 || turn.untrackedCalls > 0), turnCount: turns.length, open };
}

/**
 * Which calls' changes Mino does not know in full: an MCP call's never, a
 * bash call's unless all its changes were captured. A capture that was not
 * complete is always recorded (a `capture` record, partial or not_captured);
 * a complete one only by the first command of each opening of a session log
 * (recordCommand.ts), which saves a disk flush per command. So a bash call
 * with no record of its own counts as captured when an earlier call of the
 * log has one and it ended as a command ends (completed or failed: a crash
 * leaves its outcome unknown, and perhaps part of its changes recorded).
 */
class UntrackedCalls {
  private readonly calls: Array<{ callId: string; turn: TurnChanges; bash: boolean; captureKnown: boolean }> = [];
  private readonly outcomes = new Map<string, string>();

  started(callId: string, name: string, turn: TurnChanges): void {
    this.calls.push({ callId, turn, bash: name === 'bash', captureKnown: this.outcomes.size > 0 });
  }

  capture(callId: string, outcome: string): void {
    this.outcomes.set(callId, outcome);
  }

  count(status: ReadonlyMap<string, ToolStatus | 'running'>): void {
    for (const call of this.calls) {
      const outcome = this.outcomes.get(call.callId);
      const ended = status.get(call.callId) === 'completed' || status.get(call.callId) === 'failed';
      const captured = call.bash && (outcome === 'captured' || (outcome === undefined && call.captureKnown && ended));
      if (!captured) call.turn.untrackedCalls += 1;
    }
  }
}
