// The `anthropic` wire: Anthropic Messages, streamed, with tools, through
// @anthropic-ai/sdk (loaded on the first Anthropic request). Stateless: the
// whole history goes with every request. The SDK sends the key and
// `anthropic-version` and parses the stream; as for the chat wire (chat.ts),
// its retries are off and its timeout, transport and limits are the shared
// core's.
import type { MessageCreateParamsStreaming, RawMessageStreamEvent, Usage } from '@anthropic-ai/sdk/resources/messages';
import { contextLengthError, incompleteResponseError } from '../errors';
import { MalformedEventError, ServiceEventError } from '../serviceErrors';
import type { ModelRequest, ModelResponse, ModelUsage, OutputItem, ReasoningEffort } from '../types';
import type { StreamSink, Wire } from '../wireCore';
import { anthropicReasoningItem, toAnthropicMessages, toAnthropicSystem, toAnthropicTools, type ThinkingBlock } from './anthropicItems';
import { constructUnseen, SDK_TIMEOUT_MARGIN_MS, type SdkWireOptions } from './sdkWire';

/**
 * max_tokens, which the API requires: 32000, the output limit of Claude Opus
 * 4 and 4.1 and half of Sonnet 4's and Haiku 4.5's, so every current model
 * accepts it, and no answer a turn needs is cut short (Mino asks for one step
 * at a time). Thinking budgets below come out of it.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 32_000;

/** budget_tokens for each effort (1024 is the API's minimum); "default" reasoning is medium. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = { minimal: 1024, low: 4096, medium: 10_000, high: 24_000 };
const MIN_THINKING_BUDGET = 1024;

export interface AnthropicWireOptions extends Omit<SdkWireOptions, 'organization' | 'project'> {
  maxOutputTokens?: number;
}

export function anthropicWire(options: AnthropicWireOptions, req: ModelRequest): Wire {
  const body = requestBody(options, req);
  let sdk: typeof import('@anthropic-ai/sdk') | undefined;
  return {
    api: 'the Anthropic Messages API',
    body,
    async open(fetch, signal) {
      const { Anthropic } = (sdk = await import('@anthropic-ai/sdk'));
      // It would add ANTHROPIC_CUSTOM_HEADERS' headers to the request, over its own (sdkWire.ts).
      const client = constructUnseen(['ANTHROPIC_CUSTOM_HEADERS'], () => new Anthropic({
        apiKey: options.apiKey,
        // null, not undefined: the SDK would read ANTHROPIC_AUTH_TOKEN and send it as a bearer token too.
        authToken: null,
        // This SDK (1.16) sends the key as `Authorization: Bearer`; the Messages API reference and the
        // Anthropic-compatible gateways and servers read `x-api-key`, so it goes there too.
        defaultHeaders: { 'x-api-key': options.apiKey },
        // The SDK adds /v1/messages; a base URL written as the other wires' are (ending in /v1) works too.
        baseURL: options.baseURL.replace(/\/v1\/?$/, ''),
        fetch,
        maxRetries: 0,
        timeout: options.timeoutMs + SDK_TIMEOUT_MARGIN_MS,
        logLevel: 'off',
      }));
      return await client.messages.create(body, { signal });
    },
    read: readMessages,
    translate: (error) => (sdk ? translateAnthropicError(sdk, error) : error),
  };
}

function requestBody(options: AnthropicWireOptions, req: ModelRequest): MessageCreateParamsStreaming {
  const maxTokens = options.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  // The budget must leave room for the answer itself (budget_tokens < max_tokens).
  const budget = req.reasoning ? Math.min(THINKING_BUDGET[req.reasoning.effort ?? 'medium'], maxTokens - MIN_THINKING_BUDGET) : 0;
  const system = toAnthropicSystem(req.instructions);
  return {
    model: options.model,
    max_tokens: maxTokens,
    ...(system ? { system } : {}),
    messages: toAnthropicMessages(req.input, req.imageData),
    ...(req.tools.length > 0 ? { tools: toAnthropicTools(req.tools) } : {}),
    ...(req.tools.length > 0 && options.parallelToolCalls === false ? { tool_choice: { type: 'auto', disable_parallel_tool_use: true } } : {}),
    ...(budget >= MIN_THINKING_BUDGET ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    stream: true,
  } as MessageCreateParamsStreaming;
}

/** The SDK's reading of a stream in the transport's terms: data that is not JSON, and an `error` event. */
function translateAnthropicError(sdk: typeof import('@anthropic-ai/sdk'), error: unknown): unknown {
  if (error instanceof SyntaxError) return new MalformedEventError();
  if (error instanceof sdk.APIError && Object.getPrototypeOf(error) === sdk.APIError.prototype && error.status === undefined) {
    // The event's body is {type: "error", error: {type, message}}.
    const body = error.error as { error?: unknown } | undefined;
    return new ServiceEventError(body?.error ?? body);
  }
  return error;
}

/** An event's block or delta, read field by field: the service may send kinds newer than the SDK's types. */
type Fields = { type: string; [field: string]: unknown };

type Slot = { type: 'text'; text: string } | ThinkingBlock | { type: 'tool_use'; id: string; name: string; json: string };

/** Reads the events to message_stop: text and thinking forwarded as they arrive, blocks assembled by index. */
async function readMessages(events: AsyncIterable<unknown>, sink: StreamSink): Promise<ModelResponse | undefined> {
  let id = '';
  let usage: Partial<Usage> = {};
  let stopReason: string | null | undefined;
  let stopped = false;
  const blocks: Slot[] = [];
  for await (const data of events) {
    const event = data as RawMessageStreamEvent;
    sink.heard();
    switch (event.type) {
      case 'message_start':
        id = event.message.id;
        usage = event.message.usage ?? {};
        break;
      case 'content_block_start':
        startBlock(blocks, event.index, event.content_block as unknown as Fields, sink);
        break;
      case 'content_block_delta':
        addDelta(blocks[event.index], event.delta as unknown as Fields, sink);
        break;
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason;
        // The final counts; input counts only where the service sends them again.
        usage = { ...usage, ...(definedFields(event.usage ?? {}) as Partial<Usage>) };
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) return undefined;
  if (stopReason === 'max_tokens') throw incompleteResponseError('max_output_tokens');
  if (stopReason === 'refusal') throw incompleteResponseError('content_filter');
  if (stopReason === 'model_context_window_exceeded') throw contextLengthError('the answer reached the end of the context window');
  return { id: id || 'message', output: outputItems(id, blocks), usage: anthropicUsage(usage) };
}

function startBlock(blocks: Slot[], index: number, block: Fields, sink: StreamSink): void {
  const text = (field: string) => (typeof block[field] === 'string' ? (block[field] as string) : '');
  switch (block.type) {
    case 'text':
      sink.meter.takeText(text('text'));
      blocks[index] = { type: 'text', text: text('text') };
      if (text('text')) sink.onEvent({ type: 'text_delta', delta: text('text') });
      break;
    case 'thinking':
      sink.meter.takeText(text('thinking') + text('signature'));
      blocks[index] = { type: 'thinking', thinking: text('thinking'), signature: text('signature') };
      break;
    case 'redacted_thinking':
      sink.meter.takeText(text('data'));
      blocks[index] = { type: 'redacted_thinking', data: text('data') };
      break;
    case 'tool_use':
      blocks[index] = { type: 'tool_use', id: text('id'), name: text('name'), json: '' };
      break;
    // Server tools' blocks are not part of Mino's history.
  }
}

function addDelta(block: Slot | undefined, delta: Fields, sink: StreamSink): void {
  const piece = (field: string) => (typeof delta[field] === 'string' ? (delta[field] as string) : '');
  if (delta.type === 'text_delta' && block?.type === 'text') {
    sink.meter.takeText(piece('text'));
    block.text += piece('text');
    sink.onEvent({ type: 'text_delta', delta: piece('text') });
  } else if (delta.type === 'thinking_delta' && block?.type === 'thinking') {
    sink.meter.takeText(piece('thinking'));
    block.thinking += piece('thinking');
    sink.onEvent({ type: 'reasoning_delta', delta: piece('thinking') });
  } else if (delta.type === 'signature_delta' && block?.type === 'thinking') {
    sink.meter.takeText(piece('signature'));
    block.signature += piece('signature');
  } else if (delta.type === 'input_json_delta' && block?.type === 'tool_use') {
    sink.meter.takeText(piece('partial_json'));
    block.json += piece('partial_json');
  }
}

function outputItems(id: string, blocks: Slot[]): OutputItem[] {
  const output: OutputItem[] = [];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      if (block.text) output.push({ type: 'message', role: 'assistant', text: block.text });
    } else if (block.type === 'tool_use') {
      // A tool without parameters streams no input at all.
      output.push({ type: 'function_call', call_id: block.id, name: block.name, arguments: block.json || '{}' });
    } else {
      output.push(anthropicReasoningItem(`${id}_thinking_${index}`, block));
    }
  });
  return output;
}

/** Anthropic counts cached input apart from input_tokens; the context meter wants the whole prompt. */
function anthropicUsage(usage: Partial<Usage>): ModelUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const input = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + cacheRead;
  return { inputTokens: input, outputTokens: usage.output_tokens ?? 0, ...(cacheRead ? { cachedInputTokens: cacheRead } : {}) };
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null && field !== undefined)) as Partial<T>;
}
