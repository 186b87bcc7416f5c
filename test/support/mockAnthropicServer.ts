// A loopback Anthropic Messages service, streaming as the API reference
// ("Streaming Messages") and @anthropic-ai/sdk's RawMessageStreamEvent
// describe: named events message_start (with the input usage, cache counts
// included), content_block_start / content_block_delta / content_block_stop
// per block (thinking with thinking_delta then signature_delta, text with
// text_delta, tool_use with input_json_delta fragments), pings between, then
// message_delta (stop_reason, output usage) and message_stop. Errors mid-stream
// are an `error` event.
import { nextId, pause, pieces, startMockWireServer, type MockWireServer, type SseOut, type WireAnswerStep, type WireFailStep, type WireHangStep } from './mockWireServer';

export type { MockWireServer as MockAnthropicServer };

function send(sse: SseOut, type: string, payload: Record<string, unknown>): void {
  sse.send({ type, ...payload }, type);
}

function start(sse: SseOut, model: string, id: string, usage: WireAnswerStep['usage']): void {
  const input = usage ?? { input_tokens: 10, output_tokens: 5 };
  send(sse, 'message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: input.input_tokens,
        cache_creation_input_tokens: input.cache_creation_tokens ?? 0,
        cache_read_input_tokens: input.cached_tokens ?? 0,
        output_tokens: 1,
      },
    },
  });
}

/** One block: its start, its deltas a few characters each with a pause between, its stop. */
async function block(sse: SseOut, index: number, first: Record<string, unknown>, deltas: Array<Record<string, unknown>>, delayMs: number): Promise<void> {
  send(sse, 'content_block_start', { index, content_block: first });
  for (const delta of deltas) {
    if (sse.gone) return;
    await pause(delayMs);
    send(sse, 'content_block_delta', { index, delta });
  }
  send(sse, 'content_block_stop', { index });
}

async function answer(sse: SseOut, model: string, step: WireAnswerStep): Promise<void> {
  const id = step.id ?? nextId('msg');
  const delayMs = step.deltaDelayMs ?? 1;
  start(sse, model, id, step.usage);
  send(sse, 'ping', {});
  await pause(step.delayMs);
  let index = 0;
  if (step.reasoning) {
    const thinking = pieces(step.reasoning.text, 3).map((part) => ({ type: 'thinking_delta', thinking: part }));
    const signature = pieces(step.reasoning.signature ?? 'sig', 16).map((part) => ({ type: 'signature_delta', signature: part }));
    await block(sse, index++, { type: 'thinking', thinking: '', signature: '' }, [...thinking, ...signature], delayMs);
  }
  if (step.redactedThinking) await block(sse, index++, { type: 'redacted_thinking', data: step.redactedThinking }, [], delayMs);
  if (step.text !== undefined) {
    const text = (step.deltas ?? pieces(step.text)).map((part) => ({ type: 'text_delta', text: part }));
    await block(sse, index++, { type: 'text', text: '' }, text, delayMs);
  }
  for (const call of step.calls ?? []) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const json = pieces(args, 5).map((part) => ({ type: 'input_json_delta', partial_json: part }));
    await block(sse, index++, { type: 'tool_use', id: call.call_id ?? nextId('toolu'), name: call.name, input: {} }, json, delayMs);
  }
  if (sse.gone) return;
  const stop = step.finish ?? (step.calls?.length ? 'tool_use' : 'end_turn');
  send(sse, 'message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: step.usage?.output_tokens ?? 5 } });
  send(sse, 'message_stop', {});
  sse.end();
}

async function partialText(sse: SseOut, model: string, deltas: string[]): Promise<void> {
  start(sse, model, nextId('msg'), undefined);
  send(sse, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  for (const text of deltas) {
    await pause(1);
    send(sse, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  }
}

async function fail(sse: SseOut, model: string, step: WireFailStep): Promise<void> {
  await partialText(sse, model, step.partialDeltas ?? ['Par', 'tial']);
  switch (step.fail) {
    case 'error':
      send(sse, 'error', { error: { type: step.code ?? 'overloaded_error', message: step.message ?? 'Overloaded' } });
      return sse.end();
    case 'malformed':
      sse.send(step.message ?? '{"type": "content_block_delta", "index": 0, "delta": {', 'content_block_delta');
      return sse.end();
    case 'unfinished':
      // The stream ends cleanly, but without message_stop.
      send(sse, 'content_block_stop', { index: 0 });
      return sse.end();
    case 'drop':
      return sse.drop();
  }
}

async function hang(sse: SseOut, model: string, step: WireHangStep): Promise<void> {
  await partialText(sse, model, step.hangAfterDeltas);
}

/** Serves POST /v1/messages; `baseURL` is the service's root, as @anthropic-ai/sdk takes it. */
export function startMockAnthropicServer(): Promise<MockWireServer> {
  return startMockWireServer('/v1/messages', '', { answer, fail, hang });
}
