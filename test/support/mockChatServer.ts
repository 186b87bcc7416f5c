// A loopback OpenAI Chat Completions service, streaming as the API reference
// and the openai SDK's ChatCompletionChunk describe: `data:` chunks with one
// choice whose delta carries the role, then `reasoning_content` (as DeepSeek,
// vLLM and llama.cpp send reasoning), content, and tool calls whose arguments
// arrive in fragments by index; a chunk with the finish_reason; with
// stream_options.include_usage, a last chunk with no choices and the usage;
// then `data: [DONE]`. Errors mid-stream come as a chunk with an `error` field.
import { nextId, pause, pieces, startMockWireServer, type MockWireServer, type SseOut, type WireAnswerStep, type WireFailStep, type WireHangStep } from './mockWireServer';

export type { MockWireServer as MockChatServer };

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

async function streamPieces(sse: SseOut, id: string, model: string, field: string, parts: string[], delayMs: number): Promise<void> {
  for (const part of parts) {
    if (sse.gone) return;
    sse.send(chunk(id, model, { [field]: part }));
    await pause(delayMs);
  }
}

async function answer(sse: SseOut, model: string, step: WireAnswerStep): Promise<void> {
  const id = step.id ?? nextId('chatcmpl');
  const delayMs = step.deltaDelayMs ?? 1;
  sse.send(chunk(id, model, { role: 'assistant', content: '' }));
  await pause(step.delayMs);
  if (step.reasoning) await streamPieces(sse, id, model, 'reasoning_content', pieces(step.reasoning.text, 3), delayMs);
  if (step.text !== undefined) await streamPieces(sse, id, model, 'content', step.deltas ?? pieces(step.text), delayMs);
  for (const [index, call] of (step.calls ?? []).entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const callId = call.call_id ?? nextId('call');
    sse.send(chunk(id, model, { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const fragment of pieces(args, 5)) {
      await pause(delayMs);
      sse.send(chunk(id, model, { tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  }
  if (sse.gone) return;
  sse.send(chunk(id, model, {}, step.finish ?? (step.calls?.length ? 'tool_calls' : 'stop')));
  const usage = step.usage ?? { input_tokens: 10, output_tokens: 5 };
  sse.send({
    id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
      completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
    },
  });
  sse.send('[DONE]');
  sse.end();
}

async function fail(sse: SseOut, model: string, step: WireFailStep): Promise<void> {
  const id = nextId('chatcmpl');
  sse.send(chunk(id, model, { role: 'assistant', content: '' }));
  await streamPieces(sse, id, model, 'content', step.partialDeltas ?? ['Par', 'tial'], 1);
  switch (step.fail) {
    case 'error':
      sse.send({ error: { message: step.message ?? 'The stream hit an error.', type: 'server_error', code: step.code ?? null, param: null } });
      return sse.end();
    case 'malformed':
      sse.send(step.message ?? '{"id": "broken", "choices": [');
      return sse.end();
    case 'unfinished':
      // The stream ends cleanly, but no chunk ever said why the answer ended.
      return sse.end();
    case 'drop':
      return sse.drop();
  }
}

async function hang(sse: SseOut, model: string, step: WireHangStep): Promise<void> {
  const id = nextId('chatcmpl');
  sse.send(chunk(id, model, { role: 'assistant', content: '' }));
  await streamPieces(sse, id, model, 'content', step.hangAfterDeltas, 1);
}

/** Serves POST /v1/chat/completions; `baseURL` ends in /v1, as the openai SDK takes it. */
export function startMockChatServer(): Promise<MockWireServer> {
  return startMockWireServer('/v1/chat/completions', '/v1', { answer, fail, hang });
}
