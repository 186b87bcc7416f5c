// The `responses` wire: the OpenAI Responses API, streamed, stateless
// (`store: false`, reasoning sent back with its encrypted content), through
// the openai SDK (`client.responses.create`), loaded on the first request
// (openaiClient.ts). As for the chat wire, the SDK sends the request and
// parses the stream; its retries are off, and its transport is the client's
// fetch, wrapped (transport.ts) so redirects, error bodies and event sizes
// stay within limits; the idle timer, the abort and the answer limit are the
// shared core's (wireCore.ts).
import type { Response as ApiResponse, ResponseCreateParamsStreaming, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { fromApiOutput, toApiInput, toApiTools } from '../apiItems';
import { failedResponseError, incompleteResponseError } from '../errors';
import { ServiceEventError } from '../serviceErrors';
import type { ModelRequest, ModelResponse, ModelUsage } from '../types';
import type { StreamSink, Wire } from '../wireCore';
import { loadOpenAI, openAIClient, translateOpenAIError, type OpenAISdk } from './openaiClient';
import type { SdkWireOptions } from './sdkWire';

export function responsesWire(options: SdkWireOptions, req: ModelRequest): Wire {
  const body = requestBody(options, req);
  let sdk: OpenAISdk | undefined;
  return {
    api: 'the Responses API',
    body,
    async open(fetch, signal) {
      sdk = await loadOpenAI();
      return await openAIClient(sdk, options, fetch).responses.create(body, { signal });
    },
    read: readAnswer,
    translate: (error) => (sdk ? translateOpenAIError(sdk, error) : error),
  };
}

function requestBody(opts: SdkWireOptions, req: ModelRequest): ResponseCreateParamsStreaming {
  const effort = req.reasoning?.effort;
  return {
    model: opts.model,
    instructions: req.instructions,
    input: toApiInput(req.input, req.imageData),
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
        // The SDK fails the stream on a named `error` event (translateOpenAIError); an unnamed one arrives here.
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
