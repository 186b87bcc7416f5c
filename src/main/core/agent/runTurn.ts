// One turn: the person's message, then model requests and paired tool results
// until the model answers without calls, a limit is reached, or something
// stops it. Every record is saved before what it describes acts.
import type { PermissionMode, ToolResult, TurnEndStatus } from '../../../shared/domain';
import type { TurnUsage } from '../../../shared/sessions';
import { compactionThreshold, type ContextBudget, type ContextSettings } from '../context/budget';
import { compact, type HistoryPositions } from '../context/compact';
import type { TokenCounter } from '../context/tokens';
import { ModelError, type ModelClient, type HistoryItem, type ModelRequest, type ModelStreamEvent, type ModelUsage, type ToolSpec } from '../model/types';
import { decide, factsFor } from '../policy/decide';
import { limitMessages, TURN_LIMITS } from '../policy/limits';
import { SessionSaveError, type SessionLog } from '../sessions/sessionLog';
import { toolOutputForModel } from '../sessions/toolOutput';
import { withHiddenCharacterWarning } from '../tools/hiddenCharacterCheck';
import { displayOf, type KeepPreImage, type ToolContext } from '../tools/types';
import { askApproval, type Approver, type AskPosition } from './approver';
import type { TurnEvent, TurnEventListener } from './events';
import { parseArguments, type ToolRegistry } from './toolRegistry';

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
}

/** The session's context budget, as one turn needs it. */
export interface TurnBudget {
  budget: ContextBudget;
  /** Counts the turn's tokens; may start as a free upper bound of the exact counter (context/tokens.ts). */
  counter: TokenCounter;
  /** The exact counter, where `counter` is only a bound of it: loaded when a count from the bound settles nothing, then kept as `counter`. */
  exact?: () => Promise<TokenCounter>;
  settings: ContextSettings;
  /** Record positions of history items, where a compaction may cut; the turn adds its message's. */
  positions: HistoryPositions;
}

export interface TurnOutcome {
  status: TurnEndStatus;
  /** Person-facing explanation for anything but a completed turn. */
  message?: string;
}

type FunctionCall = Extract<HistoryItem, { type: 'function_call' }>;

const NOT_RUN_STOPPED = 'Not run: the person stopped the turn before this call started.';

export async function runTurn(userText: string, options: TurnOptions): Promise<TurnOutcome> {
  const emit = (event: TurnEvent) => options.onEvent?.(event);
  const usage: TurnUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  const ending = async () => {
    const budget = options.budget;
    const context = budget
      ? { used: await usedTokens(budget, options.history, { instructions: options.instructions, tools: options.tools.specs() }), window: budget.settings.window }
      : undefined;
    return { usage, ...(context ? { context } : {}) };
  };
  try {
    const outcome = await runTurnSteps(userText, options, emit, usage);
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

async function runTurnSteps(userText: string, options: TurnOptions, emit: (event: TurnEvent) => void, usage: TurnUsage): Promise<TurnOutcome> {
  const { log, history, model, tools, context, budget } = options;
  const limits = options.limits ?? TURN_LIMITS;
  const messages = limitMessages(limits);
  const signal = context.signal;
  const seenCallIds = options.usedCallIds ?? new Set(history.flatMap((item) => (item.type === 'function_call' ? [item.call_id] : [])));
  const specs = tools.specs();

  const position = await log.append({ type: 'user', text: userText });
  const message: HistoryItem = { type: 'message', role: 'user', text: userText };
  history.push(message);
  budget?.positions.set(message, position);
  emit({ type: 'user_message', text: userText });

  let requests = 0;
  let toolCalls = 0;
  // A request the service refused as too long gets one compaction and one retry, never more.
  let retriedAfterOverflow = false;
  for (;;) {
    if (signal?.aborted) return stopped();
    if (requests >= limits.modelRequests) return { status: 'limit', message: messages.modelRequests };
    requests += 1;
    emit({ type: 'assistant_start', request: requests });

    if (budget) {
      const threshold = compactionThreshold(budget.settings);
      const used = await usedTokens(budget, history, { instructions: options.instructions, tools: specs }, threshold);
      if (used >= threshold) {
        const failed = await compactInTurn(options, budget, used, emit, specs);
        if (failed) return failed;
      }
    }

    let response;
    for (;;) {
      try {
        response = await model.respond(
          { instructions: options.instructions, input: history, tools: specs, signal, cacheKey: options.cacheKey, reasoning: options.reasoning?.() },
          (event) => emit(turnEventOf(event)),
        );
        break;
      } catch (error) {
        if (!(error instanceof ModelError)) throw error;
        if (error.kind === 'aborted') return stopped();
        if (error.kind === 'context_length' && budget && !retriedAfterOverflow) {
          retriedAfterOverflow = true;
          const used = await usedTokens(budget, history, { instructions: options.instructions, tools: specs });
          const failed = await compactInTurn(options, budget, used, emit, specs, error.message);
          if (failed) return failed;
          continue;
        }
        return { status: 'failed', message: error.message };
      }
    }

    // A call id the session already has would make its result ambiguous and the log unloadable: refuse the response whole.
    const reused = reusedCallId(response.output, seenCallIds);
    if (reused !== null) {
      return {
        status: 'failed',
        message: `The model service sent a tool call with an id this session already used (${reused}); Mino ran nothing from that response. Send your message again.`,
      };
    }

    // Saved before any decision acts on it.
    await log.append({ type: 'response', responseId: response.id, output: response.output, ...(response.usage ? { usage: response.usage } : {}) });
    history.push(...response.output);
    if (response.usage) {
      addUsage(usage, response.usage);
      budget?.budget.report(response.usage, history.length);
    }
    for (const item of response.output) {
      if (item.type === 'message' && item.role === 'assistant' && item.text) emit({ type: 'assistant_text', text: item.text });
      if (item.type === 'reasoning' && item.summary.length > 0) emit({ type: 'reasoning_text', text: item.summary.map((part) => part.text).join('\n\n') });
    }

    const calls = response.output.filter((item): item is FunctionCall => item.type === 'function_call');
    if (calls.length === 0) return { status: 'completed' };

    let endedBy: TurnOutcome | null = null;
    const asks = askPositions(calls, options);
    for (const call of calls) {
      if (!endedBy && signal?.aborted) endedBy = stopped();
      if (!endedBy && toolCalls >= limits.toolCalls) endedBy = { status: 'limit', message: messages.toolCalls };
      let result: ToolResult;
      if (endedBy) {
        // Every call still gets its paired result, so the history stays valid.
        result = { status: 'error', output: endedBy.status === 'limit' ? messages.notRunAfterLimit : NOT_RUN_STOPPED };
        await saveResult(log, call, result, emit);
      } else {
        toolCalls += 1;
        result = await runCall(call, options, emit, asks.get(call.call_id));
      }
      history.push({ type: 'function_call_output', call_id: call.call_id, output: toolOutputForModel(result) });
    }
    if (endedBy) return endedBy;
  }
}

/** Compacts before a request of this turn; the turn's end when compaction failed, else null. */
/** The exact counter, loaded now if the turn so far counted with a bound of it. */
async function exactCounter(budget: TurnBudget): Promise<TokenCounter> {
  if (budget.exact) {
    budget.counter = await budget.exact();
    delete budget.exact;
  }
  return budget.counter;
}

/**
 * Tokens a request with this history would use. A count from a bound of the
 * exact counter that is below `below` is returned as it is: the exact count is
 * below too, which is all the caller asks. Any other count is made exactly.
 */
async function usedTokens(budget: TurnBudget, history: readonly HistoryItem[], fixed: { instructions: string; tools: readonly ToolSpec[] }, below?: number): Promise<number> {
  if (budget.exact && budget.budget.counts(history)) {
    const bound = budget.budget.used(budget.counter, history, fixed);
    if (below !== undefined && bound < below) return bound;
    await exactCounter(budget);
  }
  return budget.budget.used(budget.counter, history, fixed);
}

async function compactInTurn(
  options: TurnOptions,
  budget: TurnBudget,
  used: number,
  emit: (event: TurnEvent) => void,
  specs: ToolSpec[],
  /** The service refused the request as too long (this message): the window setting is too large, so what is in use now is the limit. */
  refusal?: string,
): Promise<TurnOutcome | null> {
  const window = refusal === undefined ? budget.settings.window : Math.min(budget.settings.window, used);
  const result = await compact({
    history: options.history,
    positions: budget.positions,
    log: options.log,
    model: options.model,
    counter: await exactCounter(budget),
    window,
    trigger: 'auto',
    inTurn: true,
    tokensBefore: used,
    signal: options.context.signal,
    cacheKey: options.cacheKey,
  });
  if (!result.ok) {
    if (result.reason === 'aborted') return stopped();
    // Nothing to summarize but the request still fits: send it as it is.
    const now = budget.budget.used(budget.counter, options.history, { instructions: options.instructions, tools: specs });
    if (result.reason === 'nothing_to_summarize' && refusal === undefined && now <= budget.settings.window) return null;
    return { status: 'failed', message: result.reason === 'nothing_to_summarize' && refusal !== undefined ? refusal : result.message };
  }
  budget.budget.reset();
  emit(result.event);
  return null;
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

function stopped(): TurnOutcome {
  return { status: 'aborted', message: 'Stopped. Nothing further runs in this turn; send a new message to continue.' };
}

/**
 * The pipeline of one live call: validate, decide, inspect, ask or record,
 * save the start, execute (which rechecks), save the result. Returns the
 * result after it is saved.
 */
/**
 * Which calls of one response will ask, numbered, so a dialog can say "1 of 3".
 * The same pure steps the calls will take (validate, decide), never the
 * inspection; a call whose inspection then fails simply never asks, and the
 * others keep their numbers. Empty when at most one call asks.
 */
function askPositions(calls: readonly FunctionCall[], options: TurnOptions): Map<string, AskPosition> {
  const mode = typeof options.mode === 'function' ? options.mode() : options.mode;
  const asking = calls.filter((call) => {
    const tool = options.tools.get(call.name);
    if (!tool) return false;
    const parsed = parseArguments(call.arguments);
    const validation = parsed.ok ? tool.validate(parsed.value) : parsed;
    return validation.ok && decide(factsFor(tool, validation.args), mode).decision === 'ask';
  });
  if (asking.length < 2) return new Map();
  return new Map(asking.map((call, index) => [call.call_id, { index: index + 1, total: asking.length }]));
}

async function runCall(call: FunctionCall, options: TurnOptions, emit: (event: TurnEvent) => void, position?: AskPosition): Promise<ToolResult> {
  const { log, tools, context } = options;
  const mode = typeof options.mode === 'function' ? options.mode() : options.mode;
  const finish = (result: ToolResult) => saveResult(log, call, result, emit);

  const tool = tools.get(call.name);
  if (!tool) {
    emit({ type: 'tool_call', callId: call.call_id, name: call.name, arguments: call.arguments, decision: null, mode, tool: null });
    return finish({ status: 'invalid_arguments', output: `There is no tool named ${call.name}. Use one of: ${tools.names().join(', ')}.` });
  }

  const parsed = parseArguments(call.arguments);
  const validation = parsed.ok ? tool.validate(parsed.value) : parsed;
  if (!validation.ok) {
    emit({ type: 'tool_call', callId: call.call_id, name: call.name, arguments: call.arguments, decision: null, mode, tool: displayOf(tool) });
    return finish({ status: 'invalid_arguments', output: validation.reason });
  }

  const verdict = decide(factsFor(tool, validation.args), mode);
  emit({ type: 'tool_call', callId: call.call_id, name: call.name, arguments: call.arguments, decision: verdict.decision, mode, tool: displayOf(tool) });
  if (verdict.decision === 'deny') return finish({ status: 'denied', output: verdict.reason });

  let inspection;
  try {
    inspection = await tool.inspect(validation.args, context);
  } catch (error) {
    return finish({ status: 'invalid_arguments', output: `Could not inspect the target: ${errorText(error)}` });
  }
  if (!inspection.ok) return finish(inspection.result);
  const confirmation = withHiddenCharacterWarning(inspection.confirmation);

  // What the person sees is saved first, so a resumed session's card shows it as it was shown.
  const shown = async (asked: boolean) => {
    await log.append({ type: 'confirmation', call_id: call.call_id, name: call.name, asked, mode, confirmation });
    emit({ type: 'tool_confirmation', callId: call.call_id, name: call.name, confirmation, asked, mode });
  };
  if (verdict.decision === 'ask') {
    await shown(true);
    const approved = await askApproval(options.approver, { callId: call.call_id, toolName: call.name, confirmation, ...(position ? { position } : {}) }, context.signal);
    emit({ type: 'approval', callId: call.call_id, approved });
    if (!approved) return finish({ status: 'denied', output: tool.denialMessage });
  } else if (verdict.shown) {
    // Allowed by the mode, not by a person: still shown, never silent (the decision says which allows are).
    await shown(false);
  }

  // Saved before the tool runs, so a crash leaves an `unknown` result, never a re-run.
  // The temporary files it may create are named here too, so a crash's leftovers can be told from anything else.
  const tempFiles = tool.temporaryFiles?.(inspection.state) ?? [];
  // A command's processes carry a mark named here, so any that outlive a crash can be found on resume.
  const processMark = tool.processMark?.(inspection.state);
  await log.append({
    type: 'tool_start',
    call_id: call.call_id,
    name: call.name,
    arguments: call.arguments,
    ...(tempFiles.length > 0 ? { temp_files: tempFiles.map(({ path, dir }) => ({ path, dir })) } : {}),
    ...(processMark !== undefined ? { process_mark: processMark } : {}),
  });
  let result: ToolResult;
  try {
    // Each change the call makes is kept for undo under its own call id.
    // What a command prints is shown live under its call id; only the result is saved.
    const callContext: ToolContext = {
      ...context,
      ...(options.preImages ? { keepPreImage: options.preImages(call.call_id) } : {}),
      onOutput: (chunk) => emit({ type: 'tool_output', callId: call.call_id, chunk }),
    };
    result = await tool.execute(validation.args, inspection.state, callContext);
  } catch (error) {
    result = { status: 'error', output: `The tool failed unexpectedly: ${errorText(error)}` };
  }
  return finish(result);
}

async function saveResult(log: SessionLog, call: FunctionCall, result: ToolResult, emit: (event: TurnEvent) => void): Promise<ToolResult> {
  await log.append({ type: 'tool_result', call_id: call.call_id, name: call.name, status: result.status, output: result.output });
  emit({ type: 'tool_result', callId: call.call_id, name: call.name, status: result.status, output: result.output });
  return result;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
