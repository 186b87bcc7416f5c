// One turn: the person's message, then model requests and paired tool results
// until the model answers without calls, a limit is reached, or something
// stops it. Every record is saved before what it describes acts. Counting and
// compaction within the turn are turnBudget.ts's; one call's pipeline is
// toolCall.ts's.
import type { PermissionMode, ToolResult } from '../../../shared/domain';
import type { TurnUsage } from '../../../shared/sessions';
import { ModelError, type HistoryItem, type ModelClient, type ModelRequest, type ModelResponse, type ModelStreamEvent, type ModelUsage } from '../model/types';
import { imageDataFor, type ImageDataCache } from '../images/imageInputs';
import type { ImageRef } from '../../../shared/images';
import { log as trail } from '../log/log';
import { limitMessages, TURN_LIMITS } from '../policy/limits';
import { SessionSaveError, type SessionLog } from '../sessions/sessionLog';
import { toolOutputForModel } from '../sessions/toolOutput';
import type { KeepPreImage, ToolContext } from '../tools/types';
import type { Approver } from './approver';
import type { SteeringInbox } from './steeringInbox';
import type { TurnEvent, TurnEventListener } from './events';
import { askPositions, keptOutput, runCall, saveResult, type FunctionCall } from './toolCall';
import type { ToolRegistry } from './toolRegistry';
import { compactAfterRefusal, compactIfDue, usedTokens, type RequestParts, type TurnBudget, type TurnCompaction } from './turnBudget';
import { stopped, type TurnOutcome } from './turnOutcome';

export type { TurnBudget } from './turnBudget';
export type { TurnOutcome } from './turnOutcome';

export interface TurnOptions {
  log: SessionLog;
  /** The session's model input so far; the turn appends to it in place. */
  history: HistoryItem[];
  model: ModelClient;
  tools: ToolRegistry;
  instructions: string;
  /**
   * The mode each call is decided under. A function is asked before every
   * call, so a front end can let a tightened mode apply at once.
   */
  mode: PermissionMode | (() => PermissionMode);
  approver: Approver;
  context: ToolContext;
  /** Gives each call the port that keeps pre-images of what it changes, recorded under its call id. */
  preImages?: (callId: string) => KeepPreImage;
  onEvent?: TurnEventListener;
  limits?: { modelRequests: number; toolCalls: number };
  /**
   * Every function-call id the session's log holds (also before a clear); the
   * turn adds the ones it saves. Defaults to the ids in `history`.
   */
  usedCallIds?: Set<string>;
  /** Counting and compaction; without it nothing is counted and nothing is compacted. */
  budget?: TurnBudget;
  /** Sent with every request of the session (see context/cacheKey). */
  cacheKey?: string;
  /** Asked before each request: whether (and how) to request reasoning. */
  reasoning?: () => ModelRequest['reasoning'];
  /** The images the person's message carries, already kept in ~/.mino/images (images/imageStore.ts). */
  images?: ImageRef[];
  /**
   * Messages the person sends while the turn runs ("Send now"): taken right
   * before each request and closed when the turn stops requesting (what it
   * still holds was never delivered; the front end sends it as the next turn).
   */
  steering?: SteeringInbox;
  /** The message is already saved and in the history (a failed turn run again): it is not saved or added twice. */
  retry?: boolean;
}

const NOT_RUN_STOPPED = 'Not run: the person stopped the turn before this call started.';

/** One turn in progress: its options, what it has used of its limits, and what it tells the front end. */
interface Turn {
  options: TurnOptions;
  emit: (event: TurnEvent) => void;
  limits: { modelRequests: number; toolCalls: number };
  messages: ReturnType<typeof limitMessages>;
  fixed: RequestParts;
  seenCallIds: Set<string>;
  usage: TurnUsage;
  requests: number;
  toolCalls: number;
  /** A request the service refused as too long gets one compaction and one retry, never more. */
  retriedAfterOverflow: boolean;
  /** The images' bytes read so far this turn: every request sends the whole history again. */
  imageCache: ImageDataCache;
}

export async function runTurn(userText: string, options: TurnOptions): Promise<TurnOutcome> {
  const turn = startTurn(options);
  const { emit } = turn;
  const ending = async () => {
    const budget = options.budget;
    const context = budget ? { used: await usedTokens(budget, options.history, turn.fixed), window: budget.settings.window } : undefined;
    return { usage: turn.usage, ...(context ? { context } : {}) };
  };
  try {
    const outcome = await runTurnSteps(userText, turn).finally(() => closeSteering(options));
    await options.log.append({ type: 'turn_end', status: outcome.status, ...(outcome.message ? { message: outcome.message } : {}) });
    emit({ type: 'turn_end', ...outcome, ...(await ending()) });
    return outcome;
  } catch (error) {
    if (!(error instanceof SessionSaveError)) throw error;
    // The log can no longer be trusted to hold what happens next, so nothing further runs.
    const outcome: TurnOutcome = { status: 'failed', message: error.message };
    emit({ type: 'turn_end', ...outcome, ...(await ending()) });
    return outcome;
  }
}

function startTurn(options: TurnOptions): Turn {
  const limits = options.limits ?? TURN_LIMITS;
  const { history } = options;
  return {
    options,
    emit: (event) => options.onEvent?.(event),
    limits,
    messages: limitMessages(limits),
    fixed: { instructions: options.instructions, tools: options.tools.specs() },
    seenCallIds: options.usedCallIds ?? new Set(history.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : []))),
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
    requests: 0,
    toolCalls: 0,
    retriedAfterOverflow: false,
    imageCache: new Map(),
  };
}

/** The turn's steps: the person's message, then requests and their calls until the turn ends. */
async function runTurnSteps(userText: string, turn: Turn): Promise<TurnOutcome> {
  const { options, emit } = turn;
  if (!options.retry) await saveMessage(turn, userText);

  for (;;) {
    if (options.context.signal?.aborted) return stopped();
    if (turn.requests >= turn.limits.modelRequests) return { status: 'limit', message: turn.messages.modelRequests };
    await deliverSteering(turn);
    turn.requests += 1;
    emit({ type: 'assistant_start', request: turn.requests });

    if (options.budget) {
      const failed = await compactIfDue(options.budget, compaction(turn));
      if (failed) return failed;
    }
    const answered = await request(turn);
    if ('ended' in answered) return answered.ended;
    const response = answered.response;

    // A call id the session already has would make its result ambiguous and the log unloadable: refuse the response whole.
    const reused = reusedCallId(response.output, turn.seenCallIds);
    if (reused !== null) {
      return {
        status: 'failed',
        message: `The model service sent a tool call with an id this session already used (${reused}); Mino ran nothing from that response. Send your message again.`,
      };
    }
    await saveResponse(turn, response);

    const calls = response.output.filter((item): item is FunctionCall => item.type === 'function_call');
    if (calls.length === 0) return { status: 'completed' };
    const endedBy = await runCalls(turn, calls);
    if (endedBy) return endedBy;
  }
}

/** The person's message: saved, then added to the history, then shown. */
async function saveMessage(turn: Turn, userText: string): Promise<void> {
  const { options, emit } = turn;
  // The images are referred to by digest: their bytes were kept before the turn began.
  const images = options.images?.length ? { images: options.images } : {};
  const position = await options.log.append({ type: 'user', text: userText, ...images });
  const message: HistoryItem = { type: 'message', role: 'user', text: userText, ...images };
  options.history.push(message);
  options.budget?.positions.set(message, position);
  emit({ type: 'user_message', text: userText, ...images });
}

/**
 * The messages the person sent while the turn ran, each saved and added as a
 * user message after the tool results, so this request carries them and a
 * resumed session has them in the same place. Never a turn's start.
 */
async function deliverSteering(turn: Turn): Promise<void> {
  const { options, emit } = turn;
  for (const text of options.steering?.take() ?? []) {
    await options.log.append({ type: 'steer', text });
    options.history.push({ type: 'message', role: 'user', text, steered: true });
    emit({ type: 'steered_message', text });
  }
}

/** The turn requests no more: what the person sent since its last request was not delivered (the front end sends it next). */
function closeSteering(options: TurnOptions): void {
  const undelivered = options.steering?.close() ?? [];
  if (undelivered.length > 0) trail.info('turn.steering_not_delivered', { messages: undelivered.length });
}

function compaction(turn: Turn): TurnCompaction {
  const { options } = turn;
  return { history: options.history, log: options.log, model: options.model, fixed: turn.fixed, signal: options.context.signal, cacheKey: options.cacheKey, emit: turn.emit };
}

/** Sends the history to the model; once per turn, a request refused as too long is compacted and sent again. */
async function request(turn: Turn): Promise<{ response: ModelResponse } | { ended: TurnOutcome }> {
  const { options } = turn;
  for (;;) {
    try {
      const imageData = await imageDataFor(options.context.homeDir, options.history, turn.imageCache);
      const response = await options.model.respond(
        { instructions: options.instructions, input: options.history, tools: turn.fixed.tools, signal: options.context.signal, cacheKey: options.cacheKey, reasoning: options.reasoning?.(), imageData },
        (event) => turn.emit(turnEventOf(event)),
      );
      return { response };
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      if (error.kind === 'aborted') return { ended: stopped() };
      if (error.kind === 'context_length' && options.budget && !turn.retriedAfterOverflow) {
        turn.retriedAfterOverflow = true;
        const failed = await compactAfterRefusal(options.budget, compaction(turn), error.message);
        if (failed) return { ended: failed };
        continue;
      }
      return { ended: { status: 'failed', message: error.message } };
    }
  }
}

/**
 * Saves the response before any decision acts on it, then adds it to the history and tells what the model said.
 * Both keep a call's arguments over the cap as a note of their size (toolCall.ts), not whole; the call is refused.
 */
async function saveResponse(turn: Turn, response: ModelResponse): Promise<void> {
  const { options, emit } = turn;
  const output = keptOutput(response.output);
  await options.log.append({ type: 'response', responseId: response.id, output, ...(response.usage ? { usage: response.usage } : {}) });
  options.history.push(...output);
  if (response.usage) {
    addUsage(turn.usage, response.usage);
    options.budget?.budget.report(response.usage, options.history.length);
  }
  for (const item of response.output) {
    if (item.type === 'message' && item.role === 'assistant' && item.text) emit({ type: 'assistant_text', text: item.text });
    if (item.type === 'reasoning' && item.summary.length > 0) emit({ type: 'reasoning_text', text: item.summary.map((part) => part.text).join('\n\n') });
  }
}

/** Runs a response's calls in order; the turn's end when a stop or the call limit came first, else null. */
async function runCalls(turn: Turn, calls: FunctionCall[]): Promise<TurnOutcome | null> {
  const { options, emit } = turn;
  let endedBy: TurnOutcome | null = null;
  const asks = askPositions(calls, options);
  for (const call of calls) {
    if (!endedBy && options.context.signal?.aborted) endedBy = stopped();
    if (!endedBy && turn.toolCalls >= turn.limits.toolCalls) endedBy = { status: 'limit', message: turn.messages.toolCalls };
    let result: ToolResult;
    if (endedBy) {
      // Every call still gets its paired result, so the history stays valid.
      result = { status: 'error', output: endedBy.status === 'limit' ? turn.messages.notRunAfterLimit : NOT_RUN_STOPPED };
      await saveResult(options.log, call, result, emit);
    } else {
      turn.toolCalls += 1;
      result = await runCall(call, options, emit, asks.get(call.call_id));
    }
    options.history.push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(result) });
  }
  return endedBy;
}

/** A model stream event as the front end sees it. */
function turnEventOf(event: ModelStreamEvent): TurnEvent {
  switch (event.type) {
    case 'text_delta':
      return { type: 'assistant_delta', delta: event.delta };
    case 'reasoning_delta':
      return { type: 'reasoning_delta', delta: event.delta };
    case 'retry':
      return { type: 'model_retry', message: event.message, attempt: event.attempt, attempts: event.attempts, delayMs: event.delayMs };
  }
}

function addUsage(total: TurnUsage, usage: ModelUsage): void {
  total.inputTokens += usage.inputTokens;
  total.cachedInputTokens += usage.cachedInputTokens ?? 0;
  total.outputTokens += usage.outputTokens;
  total.reasoningTokens += usage.reasoningTokens ?? 0;
}

/** The first function-call id in `output` that repeats one seen before (or one earlier in `output`); records the new ones. */
function reusedCallId(output: HistoryItem[], seen: Set<string>): string | null {
  const ids = output.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : []));
  const fresh = new Set<string>();
  for (const id of ids) {
    if (seen.has(id) || fresh.has(id)) return id;
    fresh.add(id);
  }
  for (const id of fresh) seen.add(id);
  return null;
}
