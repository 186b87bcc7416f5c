// The `responses` wire: the OpenAI Responses API, streamed, stateless
// (`store: false`, reasoning sent back with its encrypted content).
//
// By default it posts over node:http itself (responsesHttp.ts): loading the
// openai SDK, or Node's own fetch, costs `mino exec` a noticeable part of its
// start-up (docs/testing.md). When the client was given a fetch (the desktop's
// net.fetch) or the environment names a proxy, the same request goes through
// that fetch instead, so all three wires share one transport there.
import type { Response as ApiResponse, ResponseCreateParamsStreaming, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fromApiOutput, toApiInput, toApiTools } from '../apiItems';
import { failedResponseError, incompleteResponseError } from '../errors';
import { eventLimitChars } from '../limits';
import { postForEvents, readEvents, ServiceEventError } from '../responsesHttp';
import { NotAStreamError } from '../transport';
import type { ModelRequest, ModelResponse, ModelUsage } from '../types';
import type { StreamSink, Wire } from '../wireCore';

export interface ResponsesWireOptions {
  url: URL;
  apiKey: string;
  model: string;
  organization?: string;
  project?: string;
  parallelToolCalls?: boolean;
  timeoutMs: number;
  answerLimitBytes: number;
  /** Send through the client's fetch rather than node:http. */
  overFetch: boolean;
}

export function responsesWire(options: ResponsesWireOptions, req: ModelRequest): Wire {
  const body = requestBody(options, req);
  return {
    api: 'the Responses API',
    body,
    open: (fetch, signal) => (options.overFetch ? openOverFetch(options, body, fetch, signal) : openOverHttp(options, body, signal)),
    read: readAnswer,
    translate: (error) => error,
  };
}

function requestBody(opts: ResponsesWireOptions, req: ModelRequest): ResponseCreateParamsStreaming {
  const effort = req.reasoning?.effort;
  return {
    model: opts.model,
    instructions: req.instructions,
    input: toApiInput(req.input),
    // A request without tools offers none at all, rather than an empty list a service might read differently.
    ...(req.tools.length > 0 ? { tools: toApiTools(req.tools) } : {}),
    stream: true,
    // Nothing is kept by the service: the session log is the only copy, so reasoning comes back encrypted.
    store: false,
    ...(req.cacheKey ? { prompt_cache_key: req.cacheKey } : {}),
    ...(req.reasoning ? { include: ['reasoning.encrypted_content' as const], reasoning: { summary: 'auto' as const, ...(effort ? { effort } : {}) } } : {}),
    ...(opts.parallelToolCalls === undefined ? {} : { parallel_tool_calls: opts.parallelToolCalls }),
  };
}

function headers(options: ResponsesWireOptions): Record<string, string> {
  return {
    authorization: `Bearer ${options.apiKey}`,
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': 'Mino',
    ...(options.organization ? { 'openai-organization': options.organization } : {}),
    ...(options.project ? { 'openai-project': options.project } : {}),
  };
}

async function openOverHttp(options: ResponsesWireOptions, body: object, signal: AbortSignal): Promise<AsyncIterable<unknown>> {
  const text = JSON.stringify(body);
  const response = await postForEvents({
    url: options.url,
    apiKey: options.apiKey,
    ...(options.organization ? { organization: options.organization } : {}),
    ...(options.project ? { project: options.project } : {}),
    body: text,
    signal,
    timeoutMs: options.timeoutMs,
    maxEventChars: eventLimitChars(options.answerLimitBytes, text.length),
  });
  // A web page or a JSON document answered with 200 is not the API.
  if (!/^text\/event-stream\b/i.test(response.contentType)) {
    response.cancel();
    throw new NotAStreamError(response.status, response.contentType);
  }
  return eventData(response.events);
}

/** Through the guarded fetch (transport.ts), which has already refused anything but a stream of events. */
async function openOverFetch(options: ResponsesWireOptions, body: object, fetch: typeof globalThis.fetch, signal: AbortSignal): Promise<AsyncIterable<unknown>> {
  const text = JSON.stringify(body);
  const response = await fetch(options.url, { method: 'POST', headers: headers(options), body: text, signal });
  const stream = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  return eventData(readEvents(stream, eventLimitChars(options.answerLimitBytes, text.length)));
}

async function* eventData(events: AsyncIterable<{ data: unknown }>): AsyncGenerator<unknown> {
  for await (const { data } of events) yield data;
}

/** Reads the events to the end, forwarding text and reasoning deltas; fails on a failed, incomplete or oversized answer. */
async function readAnswer(events: AsyncIterable<unknown>, sink: StreamSink): Promise<ModelResponse | undefined> {
  let completed: ApiResponse | undefined;
  const doneItems: ResponseOutputItem[] = [];
  for await (const data of events) {
    const event = data as ResponseStreamEvent;
    sink.heard();
    // Before anything of it is passed on or kept.
    sink.meter.take(event);
    switch (event.type) {
      case 'response.output_text.delta':
        sink.onEvent({ type: 'text_delta', delta: event.delta });
        break;
      case 'response.reasoning_summary_text.delta':
        sink.onEvent({ type: 'reasoning_delta', delta: event.delta });
        break;
      case 'response.output_item.done':
        doneItems[event.output_index] = event.item;
        break;
      case 'response.completed':
        completed = event.response;
        break;
      case 'response.failed':
        throw failedResponseError(event.response.error);
      case 'response.incomplete':
        throw incompleteResponseError(event.response.incomplete_details?.reason);
      case 'error':
        // A named SSE error event fails the stream while it is read; an unnamed one arrives here.
        throw new ServiceEventError(event);
    }
  }
  return completed ? modelResponse(completed, doneItems) : undefined;
}

function modelResponse(completed: ApiResponse, doneItems: ResponseOutputItem[]): ModelResponse {
  const output = completed.output.length > 0 ? completed.output : doneItems.filter((item) => item !== undefined);
  const reported = completed.usage;
  const usage: ModelUsage | undefined = reported
    ? {
        inputTokens: reported.input_tokens,
        outputTokens: reported.output_tokens,
        ...(reported.input_tokens_details?.cached_tokens ? { cachedInputTokens: reported.input_tokens_details.cached_tokens } : {}),
        ...(reported.output_tokens_details?.reasoning_tokens ? { reasoningTokens: reported.output_tokens_details.reasoning_tokens } : {}),
      }
    : undefined;
  return { id: completed.id, output: fromApiOutput(output), ...(usage ? { usage } : {}) };
}
