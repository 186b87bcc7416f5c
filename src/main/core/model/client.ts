// The model client: one streamed Responses API request per call to respond().
// Text deltas are forwarded as they arrive; the answer is returned only when
// the service says the response completed, so a half answer never reaches the
// loop as if it were whole. An answer larger than Mino accepts (limits.ts) is
// stopped where it passes the limit and fails the request (answerMeter.ts).
import type { Response as ApiResponse, ResponseCreateParamsStreaming, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { fromApiOutput, toApiInput, toApiTools } from './apiItems';
import { AnswerMeter } from './answerMeter';
import {
  abortedError,
  droppedStreamError,
  failedResponseError,
  incompleteResponseError,
  notAStreamError,
  stoppedSendingError,
  toModelError,
  type RequestContext,
} from './errors';
import { findUnpairedCalls } from './history';
import { ANSWER_LIMIT_BYTES, eventLimitChars } from './limits';
import { postForEvents, ServiceEventError, type EventsResponse, type ServiceEvent } from './responsesHttp';
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
  /** The most one answer may carry (text, reasoning, arguments); default ANSWER_LIMIT_BYTES (limits.ts). */
  answerLimitBytes?: number;
}

export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = DEFAULT_SETTINGS.streamIdleTimeout * 1000;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** The options with their defaults applied, as every request reads them. */
interface ClientSetup {
  opts: ModelClientOptions;
  baseURL: string;
  idleMs: number;
  maxRetries: number;
  answerLimitBytes: number;
}

export function createModelClient(opts: ModelClientOptions): ModelClient {
  const setup: ClientSetup = {
    opts,
    baseURL: opts.baseURL ?? DEFAULT_SETTINGS.baseUrl,
    idleMs: opts.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    maxRetries: Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES),
    answerLimitBytes: opts.answerLimitBytes ?? ANSWER_LIMIT_BYTES,
  };
  return { respond: (req, onEvent) => respond(setup, req, onEvent) };
}

/** Where requests go: the base URL and /responses, joined as the openai SDK joined them. */
function requestURL({ opts, baseURL }: ClientSetup): URL {
  if (!opts.apiKey.trim()) throw new ModelError('config', 'No API key is set. Add your API key in Settings, then send your message again.');
  if (!opts.model.trim()) throw new ModelError('config', 'No model is set. Choose a model in Settings, then send your message again.');
  if (!URL.canParse(baseURL)) {
    throw new ModelError('config', `The base URL "${baseURL}" is not a valid URL. Correct it in Settings, then send your message again.`);
  }
  if (!/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new ModelError('config', `The base URL "${baseURL}" is not an http or https URL. Correct it in Settings, then send your message again.`);
  }
  return new URL(`${baseURL.endsWith('/') ? baseURL.slice(0, -1) : baseURL}/responses`);
}

/** The request, attempted again after a failure before its stream began, as often as configured, each retry announced. */
async function respond(setup: ClientSetup, req: ModelRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse> {
  const unpaired = findUnpairedCalls(req.input);
  if (unpaired.length > 0) {
    throw new ModelError(
      'unpaired_history',
      `The conversation has tool calls without results (${unpaired.join(', ')}), so it was not sent to the model. Start a new session or use /clear, then send your message again.`,
    );
  }
  const url = requestURL(setup);
  const attempts = setup.maxRetries + 1;
  for (let attempt = 1; ; attempt += 1) {
    const result = await attemptOnce(setup, url, req, onEvent);
    if (!(result instanceof RetryableFailure)) return result;
    const delayMs = attempt < attempts ? retryDelayMs(result.why, attempt, setup.opts.random ?? Math.random) : null;
    if (delayMs === null) throw result.failure;
    onEvent({ type: 'retry', message: retryNotice(result.why, delayMs, attempt + 1, attempts), attempt: attempt + 1, attempts, delayMs });
    try {
      await waitUnlessAborted(delayMs, req.signal);
    } catch (reason) {
      throw abortedError(reason);
    }
  }
}

/** One attempt, with its own idle timer: the answer, or a failure another attempt may fix. */
async function attemptOnce(setup: ClientSetup, url: URL, req: ModelRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse | RetryableFailure> {
  if (req.signal?.aborted) throw abortedError(req.signal.reason);
  // Each attempt gets the whole idle allowance; a wait between attempts is not silence.
  const idle = idleTimer(setup.idleMs);
  const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
  try {
    return await stream(setup, url, req, signal, idle, onEvent);
  } catch (error) {
    // However the stop surfaced (an abort error while connecting, say), the silence was the reason.
    if (idle.fired && !req.signal?.aborted) throw stoppedSendingError(setup.baseURL, setup.idleMs);
    if (error instanceof RetryableFailure) return error;
    throw error;
  } finally {
    idle.stop();
  }
}

/** Request facts an error message can name. */
function errorContext(setup: ClientSetup, req: ModelRequest): RequestContext {
  return {
    baseURL: setup.baseURL,
    aborted: req.signal?.aborted ?? false,
    timeoutMs: setup.opts.timeoutMs,
    sentReasoning: req.reasoning !== undefined,
    sentEffort: req.reasoning?.effort !== undefined,
    answerLimitBytes: setup.answerLimitBytes,
  };
}

function requestBody(opts: ModelClientOptions, req: ModelRequest): ResponseCreateParamsStreaming {
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

async function stream(setup: ClientSetup, url: URL, req: ModelRequest, signal: AbortSignal, idle: IdleTimer, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse> {
  const response = await openStream(setup, url, req, signal, idle);
  let answer: StreamedAnswer;
  try {
    answer = await readAnswer(response.events, idle, new AnswerMeter(setup.answerLimitBytes), onEvent);
  } catch (error) {
    throw toModelError(error, errorContext(setup, req));
  }
  // A stream may also end quietly when the request is aborted (by the person, or by the idle timer).
  if (req.signal?.aborted) throw abortedError(req.signal.reason);
  if (idle.fired) throw stoppedSendingError(setup.baseURL, setup.idleMs);
  if (!answer.completed) throw droppedStreamError();
  return modelResponse(answer.completed, answer.doneItems);
}

/** Sends the request; the events of a stream, or a ModelError (wrapped in a RetryableFailure when another attempt may fix it). */
async function openStream(setup: ClientSetup, url: URL, req: ModelRequest, signal: AbortSignal, idle: IdleTimer): Promise<EventsResponse> {
  const { opts } = setup;
  const body = JSON.stringify(requestBody(opts, req));
  try {
    const response = await postForEvents({
      url,
      apiKey: opts.apiKey,
      ...(opts.organization ? { organization: opts.organization } : {}),
      ...(opts.project ? { project: opts.project } : {}),
      body,
      signal,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxEventChars: eventLimitChars(setup.answerLimitBytes, body.length),
    });
    // A web page or a JSON document answered with 200 is not the API.
    if (!/^text\/event-stream\b/i.test(response.contentType)) {
      response.cancel();
      throw notAStreamError(setup.baseURL, response.status, response.contentType);
    }
    return response;
  } catch (error) {
    const failure = toModelError(error, errorContext(setup, req));
    const cause = failure.kind === 'aborted' || idle.fired ? null : retryCause(error, Date.now());
    throw cause ? new RetryableFailure(failure, cause) : failure;
  }
}

interface StreamedAnswer {
  completed?: ApiResponse;
  /** The finished items by output index, for a completed response that lists none. */
  doneItems: ResponseOutputItem[];
}

/** Reads the events to the end, forwarding text and reasoning deltas; fails on a failed, incomplete or oversized answer. */
async function readAnswer(events: AsyncIterable<ServiceEvent>, idle: IdleTimer, meter: AnswerMeter, onEvent: (e: ModelStreamEvent) => void): Promise<StreamedAnswer> {
  let completed: ApiResponse | undefined;
  const doneItems: ResponseOutputItem[] = [];
  for await (const { data } of events) {
    const event = data as ResponseStreamEvent;
    idle.reset();
    // Before anything of it is passed on or kept.
    meter.take(event);
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
  return { ...(completed ? { completed } : {}), doneItems };
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
