// What every wire protocol's requests share: the retries before a stream
// begins (each announced), the idle timer, the abort, the answer meter and
// the naming of failures. A wire (wires/*.ts) only sends its request and reads
// its stream; this decides what a failure means and whether to try again.
import { AnswerMeter } from './answerMeter';
import { abortedError, droppedStreamError, stoppedSendingError, toModelError, type RequestContext } from './errors';
import { findUnpairedCalls } from './history';
import { eventLimitChars } from './limits';
import { retryCause, retryDelayMs, retryNotice, waitUnlessAborted, type RetryCause } from './retry';
import { guardFetch } from './transport';
import { ModelError, type ModelRequest, type ModelResponse, type ModelStreamEvent } from './types';

/** Where a wire's reading of the stream reports to. */
export interface StreamSink {
  onEvent(event: ModelStreamEvent): void;
  /** Counts the answer; throws once it passes the limit. */
  meter: AnswerMeter;
  /** Something arrived: the idle wait starts again. */
  heard(): void;
}

/** One wire protocol, for one request. */
export interface Wire {
  /** "the Chat Completions API": what the base URL should speak, for error messages. */
  api: string;
  /** The request's JSON, for the event size limit (its length) and for tests. */
  body: object;
  /** Sends the request through `fetch`; the stream's events. */
  open(fetch: typeof globalThis.fetch, signal: AbortSignal): Promise<AsyncIterable<unknown>>;
  /** Reads the events to the end: the answer, or undefined when the stream ended without saying it was complete. */
  read(events: AsyncIterable<unknown>, sink: StreamSink): Promise<ModelResponse | undefined>;
  /** An SDK's error in the transport's terms (serviceErrors.ts), for errors.ts; others unchanged. */
  translate(error: unknown): unknown;
}

/** A client's options with their defaults applied, as every request reads them. */
export interface WireSetup {
  baseURL: string;
  fetch: typeof fetch;
  idleMs: number;
  maxRetries: number;
  answerLimitBytes: number;
  timeoutMs: number;
  random: () => number;
}

/** The request, attempted again after a failure before its stream began, as often as configured, each retry announced. */
export async function respondOverWire(
  setup: WireSetup,
  wire: Wire,
  req: ModelRequest,
  onEvent: (e: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  const unpaired = findUnpairedCalls(req.input);
  if (unpaired.length > 0) {
    throw new ModelError(
      'unpaired_history',
      `The conversation has tool calls without results (${unpaired.join(', ')}), so it was not sent to the model. Start a new session or use /clear, then send your message again.`,
    );
  }
  const attempts = setup.maxRetries + 1;
  for (let attempt = 1; ; attempt += 1) {
    const result = await attemptOnce(setup, wire, req, onEvent);
    if (!(result instanceof RetryableFailure)) return result;
    const delayMs = attempt < attempts ? retryDelayMs(result.why, attempt, setup.random) : null;
    if (delayMs === null) throw attempt > 1 ? afterRetries(result.failure) : result.failure;
    onEvent({ type: 'retry', message: retryNotice(result.why, delayMs, attempt + 1, attempts), attempt: attempt + 1, attempts, delayMs });
    try {
      await waitUnlessAborted(delayMs, req.signal);
    } catch (reason) {
      throw abortedError(reason);
    }
  }
}

/**
 * The last failure of a request that was tried again: "wait a moment, then send again" is what the retries
 * already did, so the person is told that, and what is left to do (the window says how many attempts).
 */
function afterRetries(failure: ModelError): ModelError {
  const advice = / Wait a moment, then send your message again\.$/;
  if (!advice.test(failure.message)) return failure;
  const message = failure.message.replace(advice, ' It failed on every attempt, each after a longer wait. The service may be down or overloaded: try again in a few minutes, or check its status page.');
  return new ModelError(failure.kind, message, { ...(failure.status === undefined ? {} : { status: failure.status }), cause: failure });
}

/** One attempt, with its own idle timer: the answer, or a failure another attempt may fix. */
async function attemptOnce(setup: WireSetup, wire: Wire, req: ModelRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResponse | RetryableFailure> {
  if (req.signal?.aborted) throw abortedError(req.signal.reason);
  // Each attempt gets the whole idle allowance; a wait between attempts is not silence.
  const idle = idleTimer(setup.idleMs);
  const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
  try {
    return await streamOnce(setup, wire, req, signal, idle, onEvent);
  } catch (error) {
    // However the stop surfaced (an abort error while connecting, say), the silence was the reason.
    if (idle.fired && !req.signal?.aborted) throw stoppedSendingError(setup.baseURL, setup.idleMs);
    if (error instanceof RetryableFailure) return error;
    throw error;
  } finally {
    idle.stop();
  }
}

export function errorContext(setup: WireSetup, wire: Wire, req: ModelRequest): RequestContext {
  return {
    baseURL: setup.baseURL,
    api: wire.api,
    aborted: req.signal?.aborted ?? false,
    timeoutMs: setup.timeoutMs,
    sentReasoning: req.reasoning !== undefined,
    sentEffort: req.reasoning?.effort !== undefined,
    sentTools: req.tools.length > 0,
    answerLimitBytes: setup.answerLimitBytes,
  };
}

async function streamOnce(
  setup: WireSetup,
  wire: Wire,
  req: ModelRequest,
  signal: AbortSignal,
  idle: IdleTimer,
  onEvent: (e: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  const maxEventBytes = eventLimitChars(setup.answerLimitBytes, JSON.stringify(wire.body).length);
  const transport = guardFetch(setup.fetch, { timeoutMs: setup.timeoutMs, maxEventBytes });
  // What went wrong: what the transport saw, before whatever an SDK made of it.
  const cause = (error: unknown) => transport.failure ?? wire.translate(error);
  let events: AsyncIterable<unknown>;
  try {
    events = await untilAborted(wire.open(transport.fetch, signal), signal);
  } catch (error) {
    const failure = toModelError(cause(error), errorContext(setup, wire, req));
    const why = failure.kind === 'aborted' || idle.fired ? null : retryCause(cause(error), Date.now());
    throw why ? new RetryableFailure(failure, why) : failure;
  }
  let answer: ModelResponse | undefined;
  try {
    // Nothing the stream still yields once it is stopped reaches the turn.
    const deliver = (event: ModelStreamEvent) => void (signal.aborted || onEvent(event));
    answer = await untilAborted(wire.read(events, { onEvent: deliver, meter: new AnswerMeter(setup.answerLimitBytes), heard: () => idle.reset() }), signal);
  } catch (error) {
    throw toModelError(cause(error), errorContext(setup, wire, req));
  }
  // An SDK ends a stream quietly when the request is aborted (by the person, or by the idle timer).
  if (req.signal?.aborted) throw abortedError(req.signal.reason);
  if (idle.fired) throw stoppedSendingError(setup.baseURL, setup.idleMs);
  if (!answer) throw droppedStreamError(transport.failure);
  return answer;
}

/**
 * `work`, or its abort's reason as soon as `signal` aborts: a stop (the person's, or the idle timer's) ends the
 * wait even where an SDK, in some state of its stream, does not end its own. The SDK was handed the signal too,
 * so its connection is closed all the same.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  let stop!: () => void;
  const stopped = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason as unknown);
    signal.addEventListener('abort', stop, { once: true });
  });
  // The race's loser must not become an unhandled rejection once the work has settled.
  stopped.catch(() => undefined);
  return Promise.race([work, stopped]).finally(() => signal.removeEventListener('abort', stop));
}

/** A request that failed before its stream began in a way another attempt may fix. */
export class RetryableFailure extends Error {
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
