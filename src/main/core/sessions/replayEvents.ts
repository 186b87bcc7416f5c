// A saved session as the events a window shows, so a reopened session looks
// like the live one did. Pure: records in, events out; nothing is inspected
// or re-run. A saved confirmation comes back as it was shown; an ask's answer
// is not saved but follows from the log (an approved call started, a denied
// one never did). A replayed call carries no decision. Only the conversation since the last
// `clear` is replayed: a cleared session shows an empty transcript, as the
// model sees an empty history.
import type { ToolDisplay } from '../../../shared/domain';
import type { TurnEvent } from '../../../shared/sessions';
import type { SessionRecord } from './records';
import { NEVER_STARTED, UNKNOWN_OUTCOME } from './toolOutput';

/**
 * A replayed call has no decision and no known mode (modes are never saved);
 * `mode` is set to this placeholder only because the event requires one.
 */
export const REPLAYED_CALL_MODE = 'manual' as const;

interface OpenCall {
  callId: string;
  name: string;
  started: boolean;
  /** A person was asked about it and no answer has been replayed yet. */
  asked: boolean;
}

/** How to show a saved call's tool, by name; null for a name no tool has. */
export type ToolDisplayLookup = (name: string) => ToolDisplay | null;

export function replayEvents(records: readonly SessionRecord[], display: ToolDisplayLookup): TurnEvent[] {
  const lastClear = records.findLastIndex((record) => record.type === 'clear');
  const replay = new Replay(records, display);
  // Positions are indices into a fully loaded log (0 is the header).
  records.forEach((record, index) => {
    if (index > lastClear) replay.add(record, index);
  });
  return replay.finish();
}

type RecordOf<T extends SessionRecord['type']> = Extract<SessionRecord, { type: T }>;

/** The events of the records replayed so far, one handler per record kind. */
class Replay {
  private readonly events: TurnEvent[] = [];
  private open: OpenCall[] = [];
  /** The requests of the current turn so far. */
  private request = 0;
  private usage = noUsage();
  /** Whether any response of the current turn reported usage. */
  private reported = false;

  constructor(
    private readonly records: readonly SessionRecord[],
    private readonly display: ToolDisplayLookup,
  ) {}

  add(record: SessionRecord, index: number): void {
    switch (record.type) {
      case 'user':
        return this.userMessage(record);
      case 'steer':
        // Part of the running turn: its requests and usage go on counting.
        this.closeOpenCalls();
        this.events.push({ type: 'steered_message', text: record.text });
        return;
      case 'response':
        return this.response(record);
      case 'confirmation':
        return this.confirmation(record);
      case 'tool_start':
        return this.toolStart(record);
      case 'tool_result':
        return this.toolResult(record);
      case 'turn_end':
        return this.turnEnd(record);
      case 'compaction':
        return this.compaction(record, index);
      case 'session':
      case 'acknowledge':
      case 'clear':
      case 'title':
      case 'change':
      case 'reversal_start':
      case 'reversal_step':
      case 'reversal_end':
        return;
    }
  }

  finish(): TurnEvent[] {
    this.closeOpenCalls();
    return this.events;
  }

  private userMessage(record: RecordOf<'user'>): void {
    this.closeOpenCalls();
    this.request = 0;
    this.usage = noUsage();
    this.reported = false;
    this.events.push({ type: 'user_message', text: record.text, ...(record.images ? { images: record.images } : {}) });
  }

  private response(record: RecordOf<'response'>): void {
    this.closeOpenCalls();
    this.request += 1;
    this.events.push({ type: 'assistant_start', request: this.request });
    if (record.usage) {
      this.reported = true;
      this.usage.inputTokens += record.usage.inputTokens;
      this.usage.cachedInputTokens += record.usage.cachedInputTokens ?? 0;
      this.usage.outputTokens += record.usage.outputTokens;
      this.usage.reasoningTokens += record.usage.reasoningTokens ?? 0;
    }
    for (const item of record.output) {
      if (item.type === 'reasoning' && item.summary.length > 0) {
        this.events.push({ type: 'reasoning_text', text: item.summary.map((part) => part.text).join('\n\n') });
      } else if (item.type === 'message' && item.role === 'assistant' && item.text) {
        this.events.push({ type: 'assistant_text', text: item.text });
      } else if (item.type === 'function_call') {
        this.events.push({ type: 'tool_call', callId: item.call_id, name: item.name, arguments: item.arguments, decision: null, mode: REPLAYED_CALL_MODE, tool: this.display(item.name) });
        this.open.push({ callId: item.call_id, name: item.name, started: false, asked: false });
      }
    }
  }

  private confirmation(record: RecordOf<'confirmation'>): void {
    const call = this.openCall(record.call_id);
    if (!call) return;
    call.asked = record.asked;
    this.events.push({ type: 'tool_confirmation', callId: record.call_id, name: record.name, confirmation: record.confirmation, asked: record.asked, mode: record.mode });
  }

  /** An asked call that started was approved. */
  private toolStart(record: RecordOf<'tool_start'>): void {
    const call = this.openCall(record.call_id);
    if (!call) return;
    call.started = true;
    if (call.asked) this.events.push({ type: 'approval', callId: call.callId, approved: true });
    call.asked = false;
  }

  /** An asked call that ends without having started was denied (or its ask was withdrawn). */
  private toolResult(record: RecordOf<'tool_result'>): void {
    const call = this.openCall(record.call_id);
    if (call?.asked) this.events.push({ type: 'approval', callId: call.callId, approved: false });
    this.open = this.open.filter((candidate) => candidate.callId !== record.call_id);
    this.events.push({ type: 'tool_result', callId: record.call_id, name: record.name, status: record.status, output: record.output });
  }

  private turnEnd(record: RecordOf<'turn_end'>): void {
    this.closeOpenCalls();
    this.events.push({
      type: 'turn_end',
      status: record.status,
      ...(record.message !== undefined ? { message: record.message } : {}),
      ...(this.reported ? { usage: { ...this.usage } } : {}),
    });
  }

  private compaction(record: RecordOf<'compaction'>, index: number): void {
    this.closeOpenCalls();
    this.events.push({
      type: 'compaction',
      trigger: record.trigger,
      author: record.author,
      tokensBefore: record.tokensBefore,
      tokensAfter: record.tokensAfter,
      summary: record.summary,
      summarized: record.summarized,
      keptTurns: this.records.slice(record.keptFrom, index).filter((kept) => kept.type === 'user').length,
    });
  }

  private openCall(callId: string): OpenCall | undefined {
    return this.open.find((candidate) => candidate.callId === callId);
  }

  /** A call left without a saved result gets the result the model was given on load. */
  private closeOpenCalls(): void {
    for (const call of this.open) {
      // An ask cut short by a crash was never answered: no approval event, so the card says so.
      const result = call.started ? UNKNOWN_OUTCOME : NEVER_STARTED;
      this.events.push({ type: 'tool_result', callId: call.callId, name: call.name, status: result.status, output: result.output });
    }
    this.open = [];
  }
}

function noUsage() {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}
