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
  const events: TurnEvent[] = [];
  let open: OpenCall[] = [];
  let request = 0;

  // A call left without a saved result gets the result the model was given on load.
  const closeOpenCalls = () => {
    for (const call of open) {
      // An ask cut short by a crash was never answered: no approval event, so the card says so.
      const result = call.started ? UNKNOWN_OUTCOME : NEVER_STARTED;
      events.push({ type: 'tool_result', callId: call.callId, name: call.name, status: result.status, output: result.output });
    }
    open = [];
  };

  let usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  let reported = false;
  records.forEach((record, index) => {
    // Positions are indices into a fully loaded log (0 is the header).
    if (index <= lastClear) return;
    switch (record.type) {
      case 'user':
        closeOpenCalls();
        request = 0;
        usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
        reported = false;
        events.push({ type: 'user_message', text: record.text });
        break;
      case 'response':
        closeOpenCalls();
        request += 1;
        events.push({ type: 'assistant_start', request });
        if (record.usage) {
          reported = true;
          usage.inputTokens += record.usage.inputTokens;
          usage.cachedInputTokens += record.usage.cachedInputTokens ?? 0;
          usage.outputTokens += record.usage.outputTokens;
          usage.reasoningTokens += record.usage.reasoningTokens ?? 0;
        }
        for (const item of record.output) {
          if (item.type === 'reasoning' && item.summary.length > 0) {
            events.push({ type: 'reasoning_text', text: item.summary.map((part) => part.text).join('\n\n') });
          } else if (item.type === 'message' && item.role === 'assistant' && item.text) {
            events.push({ type: 'assistant_text', text: item.text });
          } else if (item.type === 'function_call') {
            events.push({ type: 'tool_call', callId: item.call_id, name: item.name, arguments: item.arguments, decision: null, mode: REPLAYED_CALL_MODE, tool: display(item.name) });
            open.push({ callId: item.call_id, name: item.name, started: false, asked: false });
          }
        }
        break;
      case 'confirmation': {
        const call = open.find((candidate) => candidate.callId === record.call_id);
        if (!call) break;
        call.asked = record.asked;
        events.push({ type: 'tool_confirmation', callId: record.call_id, name: record.name, confirmation: record.confirmation, asked: record.asked, mode: record.mode });
        break;
      }
      case 'tool_start': {
        const call = open.find((candidate) => candidate.callId === record.call_id);
        if (call) {
          call.started = true;
          if (call.asked) events.push({ type: 'approval', callId: call.callId, approved: true });
          call.asked = false;
        }
        break;
      }
      case 'tool_result': {
        // An asked call that ends without having started was denied (or its ask was withdrawn).
        const call = open.find((candidate) => candidate.callId === record.call_id);
        if (call?.asked) events.push({ type: 'approval', callId: call.callId, approved: false });
        open = open.filter((candidate) => candidate.callId !== record.call_id);
        events.push({ type: 'tool_result', callId: record.call_id, name: record.name, status: record.status, output: record.output });
        break;
      }
      case 'turn_end':
        closeOpenCalls();
        events.push({
          type: 'turn_end',
          status: record.status,
          ...(record.message !== undefined ? { message: record.message } : {}),
          ...(reported ? { usage: { ...usage } } : {}),
        });
        break;
      case 'compaction':
        closeOpenCalls();
        events.push({
          type: 'compaction',
          trigger: record.trigger,
          author: record.author,
          tokensBefore: record.tokensBefore,
          tokensAfter: record.tokensAfter,
          summary: record.summary,
          summarized: record.summarized,
          keptTurns: records.slice(record.keptFrom, index).filter((kept) => kept.type === 'user').length,
        });
        break;
      case 'session':
      case 'acknowledge':
      case 'clear':
      case 'title':
      case 'change':
      case 'reversal_start':
      case 'reversal_step':
      case 'reversal_end':
        break;
    }
  });
  closeOpenCalls();
  return events;
}
