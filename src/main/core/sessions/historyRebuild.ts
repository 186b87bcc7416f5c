// The model history rebuilt from a session's records, one handler per record
// kind, each checking what that kind must satisfy: a confirmation, start or
// result belongs to a call the model made that has no result yet; a start
// matches its call and passes the tool's pure validation (never inspection,
// never execution); a call id is used once; a compaction names only records
// before itself. Every call ends paired with an output: one still open when
// something else follows gets the "unknown" output if it started, and "never
// started" if not.
import type { HistoryItem } from '../model/types';
import type { CallValidator, LoadedSession, UnknownCall } from './load';
import type { CorruptLine } from './logRecords';
import type { SessionRecord } from './records';
import { NEVER_STARTED, toolOutputForModel, UNKNOWN_OUTCOME } from './toolOutput';

type RecordOf<T extends SessionRecord['type']> = Extract<SessionRecord, { type: T }>;

export type RebuiltHistory = Pick<LoadedSession, 'history' | 'positions' | 'lastUsage' | 'unknownCalls'> & {
  /** The ids of the calls in the records read. */
  callIds: string[];
};

interface OpenCall extends UnknownCall {
  started: boolean;
  resolved: boolean;
  /** Position of the response record that asked for it. */
  origin: number;
}

/**
 * Rebuilds the history from `records` (read from `recordLines`), refusing
 * what no log Mino writes could hold. `earlierCallIds` are the ids on lines
 * not read, which the records read may not use again.
 */
export function rebuildHistory(
  records: readonly SessionRecord[],
  recordLines: readonly number[],
  validate: CallValidator,
  corrupt: CorruptLine,
  earlierCallIds: ReadonlySet<string>,
): RebuiltHistory {
  const rebuild = new HistoryRebuild(validate, corrupt, earlierCallIds);
  records.forEach((record, index) => rebuild.add(record, index, recordLines[index]!));
  return rebuild.finish();
}

class HistoryRebuild {
  private readonly history: HistoryItem[] = [];
  /** The record position each history item came from (an output made up on load: its call's response). */
  private origins: number[] = [];
  private readonly positions = new WeakMap<HistoryItem, number>();
  private lastUsage: LoadedSession['lastUsage'] = null;
  private readonly calls = new Map<string, OpenCall>();
  /** The calls of the last response, until something else follows it. */
  private open: OpenCall[] = [];
  private readonly unknown: UnknownCall[] = [];
  private readonly acknowledged = new Set<string>();

  constructor(
    private readonly validate: CallValidator,
    private readonly corrupt: CorruptLine,
    private readonly earlierCallIds: ReadonlySet<string>,
  ) {}

  /** Takes record number `index` of the records read, from log line `line` (its position is `line - 1`). */
  add(record: SessionRecord, index: number, line: number): void {
    const position = line - 1;
    switch (record.type) {
      case 'session':
        if (index !== 0) throw this.corrupt(line, 'a second session header');
        return;
      case 'user':
        return this.userMessage(record, position);
      case 'steer':
        return this.steeredMessage(record, position);
      case 'response':
        return this.response(record, line, position);
      case 'confirmation':
        return this.confirmation(record, line);
      case 'tool_start':
        return this.toolStart(record, line);
      case 'tool_result':
        return this.toolResult(record, line);
      case 'acknowledge':
        for (const callId of record.call_ids) this.acknowledged.add(callId);
        return;
      case 'clear':
        return this.clear();
      case 'compaction':
        return this.compaction(record, line, position);
      case 'turn_end':
      case 'title':
      // Checkpoint records say what files were and became; the model history holds none of them.
      case 'change':
      case 'reversal_start':
      case 'reversal_step':
      case 'reversal_end':
        return;
    }
  }

  finish(): RebuiltHistory {
    this.closeOpenCalls();
    return {
      history: this.history,
      positions: this.positions,
      lastUsage: this.lastUsage,
      unknownCalls: this.unknown.filter((call) => !this.acknowledged.has(call.call_id)),
      callIds: [...this.calls.keys()],
    };
  }

  private userMessage(record: RecordOf<'user'>, position: number): void {
    this.closeOpenCalls();
    const item: HistoryItem = { type: 'message', role: 'user', text: record.text, ...(record.images ? { images: record.images } : {}) };
    this.positions.set(item, position);
    this.push(item, position);
  }

  /** Sent to a running turn: after the results of the calls before it, and not a place a compaction cuts (no position). */
  private steeredMessage(record: RecordOf<'steer'>, position: number): void {
    this.closeOpenCalls();
    this.push({ type: 'message', role: 'user', text: record.text, steered: true }, position);
  }

  /** A model response: its calls are open until their results (or anything else) follow; each call id is new. */
  private response(record: RecordOf<'response'>, line: number, position: number): void {
    this.closeOpenCalls();
    for (const item of record.output) {
      if (item.type === 'function_call') {
        if (this.calls.has(item.call_id) || this.earlierCallIds.has(item.call_id)) throw this.corrupt(line, `call id ${item.call_id} is used twice`);
        const call: OpenCall = { call_id: item.call_id, name: item.name, arguments: item.arguments, started: false, resolved: false, origin: position };
        this.calls.set(item.call_id, call);
        this.open.push(call);
      } else if (item.type === 'function_call_output') {
        throw this.corrupt(line, 'a model response cannot contain a tool output');
      }
      this.push(item, position);
    }
    if (record.usage) this.lastUsage = { tokens: record.usage.inputTokens + record.usage.outputTokens, coveredItems: this.history.length };
  }

  /** Display only; it must still belong to a call of this log that has not run yet. */
  private confirmation(record: RecordOf<'confirmation'>, line: number): void {
    const call = this.pendingCall(record.call_id, line, 'a confirmation');
    if (call.started || record.name !== call.name) throw this.corrupt(line, `the confirmation for call ${record.call_id} does not match the call the model made`);
  }

  /** A start matches the call the model made, exactly, and passes the tool's validation. */
  private toolStart(record: RecordOf<'tool_start'>, line: number): void {
    const call = this.pendingCall(record.call_id, line, 'a tool start');
    if (call.started) throw this.corrupt(line, `call ${record.call_id} is started twice`);
    if (record.name !== call.name || record.arguments !== call.arguments) {
      throw this.corrupt(line, `the tool start for call ${record.call_id} does not match the call the model made`);
    }
    const validation = this.validate(record.name, record.arguments);
    if (!validation.ok) throw this.corrupt(line, `the recorded ${record.name} call does not pass validation (${validation.reason})`);
    call.started = true;
    if (record.temp_files) call.temp_files = record.temp_files;
    if (record.process_mark) call.process_mark = record.process_mark;
  }

  private toolResult(record: RecordOf<'tool_result'>, line: number): void {
    const call = this.pendingCall(record.call_id, line, 'a tool result');
    call.resolved = true;
    this.push({ type: 'function_call_output', call_id: record.call_id, output: toolOutputForModel(record) }, call.origin);
    // A saved "unknown" result still needs the person to see it before the session goes on.
    if (record.status === 'unknown') this.unknown.push(unknownCall(call));
  }

  private clear(): void {
    this.closeOpenCalls();
    this.history.length = 0;
    this.origins = [];
    this.lastUsage = null;
  }

  /** [summary] + every item from the kept record on: what the model saw after this compaction. */
  private compaction(record: RecordOf<'compaction'>, line: number, position: number): void {
    this.closeOpenCalls();
    if (record.keptFrom > position || record.summarized.to !== record.keptFrom) {
      throw this.corrupt(line, 'the compaction names records after itself');
    }
    const keptStart = this.origins.findIndex((origin) => origin >= record.keptFrom);
    const keep = keptStart === -1 ? this.history.length : keptStart;
    const summary: HistoryItem = { type: 'summary', text: record.summary, author: record.author };
    this.positions.set(summary, record.summarized.from);
    this.history.splice(0, keep, summary);
    this.origins = [record.summarized.from, ...this.origins.slice(keep)];
    this.lastUsage = null;
  }

  /** The open call a confirmation, start or result names; the log is corrupt if there is none. */
  private pendingCall(callId: string, line: number, what: string): OpenCall {
    const call = this.calls.get(callId);
    if (!call) throw this.corrupt(line, `${what} for call ${callId}, which no saved response asked for`);
    if (call.resolved || !this.open.includes(call)) throw this.corrupt(line, `${what} for call ${callId}, which already has a result`);
    return call;
  }

  /** Pairs every call of the previous response before anything that follows it. */
  private closeOpenCalls(): void {
    for (const call of this.open) {
      if (call.resolved) continue;
      call.resolved = true;
      if (call.started) {
        this.push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(UNKNOWN_OUTCOME) }, call.origin);
        this.unknown.push(unknownCall(call));
      } else {
        this.push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(NEVER_STARTED) }, call.origin);
      }
    }
    this.open = [];
  }

  private push(item: HistoryItem, origin: number): void {
    this.history.push(item);
    this.origins.push(origin);
  }
}

function unknownCall(call: OpenCall): UnknownCall {
  const { call_id, name, arguments: args, temp_files, process_mark } = call;
  return { call_id, name, arguments: args, ...(temp_files ? { temp_files } : {}), ...(process_mark ? { process_mark } : {}) };
}
