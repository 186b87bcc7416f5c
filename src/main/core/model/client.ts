// The model client: one streamed Responses API request per call to respond().
// Text deltas are forwarded as they arrive; the answer is returned only when
// the service says the response completed, so a half answer never reaches the
// loop as if it were whole.
import type { Response as ApiResponse, ResponseCreateParamsStreaming, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { fromApiOutput, toApiInput, toApiTools } from './apiItems';
import { abortedError, droppedStreamError, failedResponseError, incompleteResponseError, notAStreamError, stoppedSendingError, toModelError } from './errors';
import { findUnpairedCalls } from './history';
import { postForEvents, ServiceEventError, type EventsResponse } from './responsesHttp';
import { DEFAULT_MAX_RETRIES, retryCause, retryDelayMs, retryNotice, waitUnlessAborted, type RetryCause } from './retry';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type ModelStreamEvent, type ModelUsage } from './types';
import { DEFAULT_SETTINGS } from '../../../shared/settings';

export interface ModelClientOptions {
  /** Defaults to the baseUrl setting's (api.openai.com). */
  baseURL?: string;
  apiKey: string;
  /** Sent as OpenAI-Organization / OpenAI-Project when set (OPENAI_ORG_ID / OPENAI_PROJECT_ID). */
  organization?: string;
  project?: string;
  model: string;
  /**
   * Retries of a request that failed before its stream began (429, 5xx, no
   * connection), each announced as a `retry` event; streams already under way
   * are not retried. Default DEFAULT_MAX_RETRIES.
   */
  maxRetries?: number;
  /** The backoff's randomness (tests pin it); default Math.random. */
  random?: () => number;
  /** Longest wait for the response's headers, per attempt (default 10 minutes). */
  timeoutMs?: number;
  /** Sent as parallel_tool_calls when set. */
  parallelToolCalls?: boolean;
  /**
   * Longest wait for the next stream event (and for the first, from the
   * request); then the request is stopped and the turn fails. Default: the
   * streamIdleTimeout setting's, 120 s.
   */
  streamIdleTimeoutMs?: number;
}

export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = DEFAULT_SETTINGS.streamIdleTimeout * 1000;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;


export function createModelClient(opts: ModelClientOptions): ModelClient {
  const baseURL = opts.baseURL ?? DEFAULT_SETTINGS.baseUrl;
  const idleMs = opts.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const maxRetries = Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES);

  /** Where requests go: the base URL and /responses, joined as the openai SDK joined them. */
  const configured = (): URL => {
    if (!opts.apiKey.trim()) throw new ModelError('config', 'No API key is set. Add your API key in Settings, then send your message again.');
    if (!opts.model.trim()) throw new ModelError('config', 'No model is set. Choose a model in Settings, then send your message again.');
    if (!URL.canParse(baseURL)) {
      throw new ModelError('config', `The base URL "${baseURL}" is not a valid URL. Correct it in Settings, then send your message again.`);
    }
    if (!/^https?:$/.test(new URL(baseURL).protocol)) {
      throw new ModelError('config', `The base URL "${baseURL}" is not an http or https URL. Correct it in Settings, then send your message again.`);
    }
    return new URL(`${baseURL.endsWith('/') ? baseURL.slice(0, -1) : baseURL}/responses`);
  };

  async function stream(url: URL, req: ModelRequest, signal: AbortSignal, idle: IdleTimer, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse> {
    const effort = req.reasoning?.effort;
    const errorContext = () => ({
      baseURL,
      aborted: req.signal?.aborted ?? false,
      timeoutMs: opts.timeoutMs,
      sentReasoning: req.reasoning !== undefined,
      sentEffort: effort !== undefined,
    });
    const body: ResponseCreateParamsStreaming = {
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
    let response: EventsResponse;
    try {
      response = await postForEvents({
        url,
        apiKey: opts.apiKey,
        ...(opts.organization ? { organization: opts.organization } : {}),
        ...(opts.project ? { project: opts.project } : {}),
        body: JSON.stringify(body),
        signal,
        timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      });
      // A web page or a JSON document answered with 200 is not the API.
      if (!/^text\/event-stream\b/i.test(response.contentType)) {
        response.cancel();
        throw notAStreamError(baseURL, response.status, response.contentType);
      }
    } catch (error) {
      const failure = toModelError(error, errorContext());
      const cause = failure.kind === 'aborted' || idle.fired ? null : retryCause(error, Date.now());
      throw cause ? new RetryableFailure(failure, cause) : failure;
    }

    let completed: ApiResponse | undefined;
    const doneItems: ResponseOutputItem[] = [];
    try {
      for await (const { data } of response.events) {
        const event = data as ResponseStreamEvent;
        idle.reset();
        switch (event.type) {
          case 'response.output_text.delta':
            onEvent({ type: 'text_delta', delta: event.delta });
            break;
          case 'response.reasoning_summary_text.delta':
            onEvent({ type: 'reasoning_delta', delta: event.delta });
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
    } catch (error) {
      throw toModelError(error, errorContext());
    }
    // A stream may also end quietly when the request is aborted (by the person, or by the idle timer).
    if (req.signal?.aborted) throw abortedError(req.signal.reason);
    if (idle.fired) throw stoppedSendingError(baseURL, idleMs);
    if (!completed) throw droppedStreamError();

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

  return {
    async respond(req: ModelRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse> {
      const unpaired = findUnpairedCalls(req.input);
      if (unpaired.length > 0) {
        throw new ModelError(
          'unpaired_history',
          `The conversation has tool calls without results (${unpaired.join(', ')}), so it was not sent to the model. Start a new session or use /clear, then send your message again.`,
        );
      }
      const url = configured();
      const attempts = maxRetries + 1;
      for (let attempt = 1; ; attempt += 1) {
        if (req.signal?.aborted) throw abortedError(req.signal.reason);
        // Each attempt gets the whole idle allowance; a wait between attempts is not silence.
        const idle = idleTimer(idleMs);
        const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
        let retry: RetryableFailure;
        try {
          return await stream(url, req, signal, idle, onEvent);
        } catch (error) {
          // However the stop surfaced (an abort error while connecting, say), the silence was the reason.
          if (idle.fired && !req.signal?.aborted) throw stoppedSendingError(baseURL, idleMs);
          if (!(error instanceof RetryableFailure)) throw error;
          retry = error;
        } finally {
          idle.stop();
        }
        const delayMs = attempt < attempts ? retryDelayMs(retry.why, attempt, opts.random ?? Math.random) : null;
        if (delayMs === null) throw retry.failure;
        onEvent({ type: 'retry', message: retryNotice(retry.why, delayMs, attempt + 1, attempts), attempt: attempt + 1, attempts, delayMs });
        try {
          await waitUnlessAborted(delayMs, req.signal);
        } catch (reason) {
          throw abortedError(reason);
        }
      }
    },
  };
}

/** A request that failed before its stream began in a way another attempt may fix. */
class RetryableFailure extends Error {
  constructor(
    readonly failure: ModelError,
    readonly why: RetryCause,
  ) {
    super(failure.message);
  }
}

interface IdleTimer {
  /** Aborted when the timer fires. */
  signal: AbortSignal;
  readonly fired: boolean;
  /** Something arrived: the wait starts again. */
  reset(): void;
  stop(): void;
}

/** Fires once `ms` pass with no reset(). */
function idleTimer(ms: number): IdleTimer {
  const controller = new AbortController();
  let fired = false;
  const fire = () => {
    fired = true;
    controller.abort();
  };
  const timer = setTimeout(fire, ms);
  return {
    signal: controller.signal,
    get fired() {
      return fired;
    },
    reset: () => void timer.refresh(),
    stop: () => clearTimeout(timer),
  };
}
