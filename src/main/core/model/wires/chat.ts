// The `chat` wire: OpenAI Chat Completions, streamed, with tools, through the
// openai SDK (loaded on the first request: openaiClient.ts). Stateless: the
// whole history goes with every request, and `store` is never sent.
//
// The SDK sends the request and parses the stream; what it cannot serve is
// left to the shared core (wireCore.ts): its retries are off (`maxRetries: 0`:
// Mino's own announce themselves), its timeout is the core's (the guarded fetch
// times the headers; the SDK has none for a stream that goes quiet, so the
// idle timer aborts it), and its transport is the client's fetch, wrapped
// (transport.ts) so redirects, error bodies and event sizes stay within limits.
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { incompleteResponseError } from '../errors';
import type { ModelRequest, ModelResponse, ModelUsage, OutputItem } from '../types';
import type { StreamSink, Wire } from '../wireCore';
import { chatReasoningItem, toChatMessages, toChatTools } from './chatItems';
import { loadOpenAI, openAIClient, translateOpenAIError, type OpenAISdk } from './openaiClient';
import type { SdkWireOptions } from './sdkWire';

export function chatWire(options: SdkWireOptions, req: ModelRequest): Wire {
  const body = requestBody(options, req);
  let sdk: OpenAISdk | undefined;
  return {
    api: 'the Chat Completions API',
    body,
    async open(fetch, signal) {
      sdk = await loadOpenAI();
      return await openAIClient(sdk, options, fetch).chat.completions.create(body, { signal });
    },
    read: readChat,
    translate: (error) => (sdk ? translateOpenAIError(sdk, error) : error),
  };
}

function requestBody(options: SdkWireOptions, req: ModelRequest): ChatCompletionCreateParamsStreaming {
  const effort = req.reasoning?.effort;
  const tools = req.tools.length > 0;
  return {
    model: options.model,
    messages: toChatMessages(req.instructions, req.input, req.imageData),
    stream: true,
    // Without it the stream carries no usage, and the context meter would have nothing to go on.
    stream_options: { include_usage: true },
    // A request without tools offers none at all, rather than an empty list a server might refuse.
    ...(tools ? { tools: toChatTools(req.tools) } : {}),
    ...(tools && options.parallelToolCalls !== undefined ? { parallel_tool_calls: options.parallelToolCalls } : {}),
    ...(effort ? { reasoning_effort: effort } : {}),
  };
}

interface CallSlot {
  id: string;
  name: string;
  arguments: string;
}

/** Chunk fields some servers send that are not in the SDK's types. */
interface ServerDelta {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/** Reads the chunks to the end: text and reasoning forwarded as they arrive, tool calls assembled by index. */
async function readChat(events: AsyncIterable<unknown>, sink: StreamSink): Promise<ModelResponse | undefined> {
  let id = '';
  let text = '';
  let reasoning = '';
  const calls: CallSlot[] = [];
  let finish: string | undefined;
  let usage: ChatCompletionChunk['usage'];
  for await (const data of events) {
    const chunk = data as ChatCompletionChunk;
    sink.heard();
    id ||= chunk.id ?? '';
    if (chunk.usage) usage = chunk.usage;
    // Mino asks for one choice; a server that sends more is read for the first.
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) continue;
    const delta = choice.delta ?? {};
    // DeepSeek, vLLM and llama.cpp name it reasoning_content; OpenRouter and Ollama, reasoning.
    const { reasoning_content, reasoning: thought } = delta as ServerDelta;
    const reasoned = typeof reasoning_content === 'string' ? reasoning_content : typeof thought === 'string' ? thought : '';
    if (reasoned) {
      sink.meter.takeText(reasoned);
      reasoning += reasoned;
      sink.onEvent({ type: 'reasoning_delta', delta: reasoned });
    }
    if (typeof delta.content === 'string' && delta.content) {
      sink.meter.takeText(delta.content);
      text += delta.content;
      sink.onEvent({ type: 'text_delta', delta: delta.content });
    }
    for (const fragment of delta.tool_calls ?? []) {
      sink.meter.takeText(fragment.function?.arguments ?? '');
      // A server that numbers no calls starts a new one with each id.
      const index = typeof fragment.index === 'number' ? fragment.index : fragment.id || calls.length === 0 ? calls.length : calls.length - 1;
      const slot = (calls[index] ??= { id: '', name: '', arguments: '' });
      if (fragment.id) slot.id = fragment.id;
      if (fragment.function?.name) slot.name ||= fragment.function.name;
      slot.arguments += fragment.function?.arguments ?? '';
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  // A stream that ended without saying why the answer ended was cut off.
  if (!finish) return undefined;
  if (finish === 'length') throw incompleteResponseError('max_output_tokens');
  if (finish === 'content_filter') throw incompleteResponseError('content_filter');
  return chatResponse(id || 'chat', text, reasoning, calls, usage);
}

function chatResponse(id: string, text: string, reasoning: string, calls: CallSlot[], usage: ChatCompletionChunk['usage']): ModelResponse {
  const output: OutputItem[] = [];
  if (reasoning) output.push(chatReasoningItem(`${id}_reasoning`, reasoning));
  if (text) output.push({ type: 'message', role: 'assistant', text });
  calls.forEach((call, index) => {
    if (!call) return;
    // A tool without parameters may come with no arguments at all; the tools read an empty object.
    output.push({ type: 'function_call', call_id: call.id || `call_${id}_${index}`, name: call.name, arguments: call.arguments || '{}' });
  });
  return { id, output, ...(usage ? { usage: chatUsage(usage) } : {}) };
}

function chatUsage(usage: NonNullable<ChatCompletionChunk['usage']>): ModelUsage {
  // DeepSeek reports its cache hits as prompt_cache_hit_tokens instead of prompt_tokens_details.
  const cached = usage.prompt_tokens_details?.cached_tokens ?? (usage as { prompt_cache_hit_tokens?: number }).prompt_cache_hit_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
