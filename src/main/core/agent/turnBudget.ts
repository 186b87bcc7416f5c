// A turn's share of the session's context budget: counting what a request
// would use, loading the exact tokenizer only when a decision needs it, and
// compacting before a request that would not fit (or that the service refused
// as too long).
import { compactionThreshold, type ContextBudget, type ContextSettings } from '../context/budget';
import { compact, type HistoryPositions } from '../context/compact';
import type { TokenCounter } from '../context/tokens';
import type { HistoryItem, ModelClient, ToolSpec } from '../model/types';
import type { SessionLog } from '../sessions/sessionLog';
import type { TurnEvent } from './events';
import { stopped, type TurnOutcome } from './turnOutcome';

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

/** What every request of the turn carries besides the history. */
export interface RequestParts {
  instructions: string;
  tools: ToolSpec[];
}

/** What compacting within a turn works on. */
export interface TurnCompaction {
  history: HistoryItem[];
  log: SessionLog;
  model: ModelClient;
  fixed: RequestParts;
  signal?: AbortSignal;
  cacheKey?: string;
  emit: (event: TurnEvent) => void;
}

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
export async function usedTokens(budget: TurnBudget, history: readonly HistoryItem[], fixed: RequestParts, below?: number): Promise<number> {
  if (budget.exact && budget.budget.counts(history)) {
    const bound = budget.budget.used(budget.counter, history, fixed);
    if (below !== undefined && bound < below) return bound;
    await exactCounter(budget);
  }
  return budget.budget.used(budget.counter, history, fixed);
}

/** Compacts before the next request when the history has reached the compaction point; the turn's end when that failed, else null. */
export async function compactIfDue(budget: TurnBudget, turn: TurnCompaction): Promise<TurnOutcome | null> {
  const threshold = compactionThreshold(budget.settings);
  const used = await usedTokens(budget, turn.history, turn.fixed, threshold);
  return used >= threshold ? compactInTurn(budget, turn, used) : null;
}

/** The service refused the request as too long (`refusal`): compacts once so it can be sent again; the turn's end when that failed, else null. */
export async function compactAfterRefusal(budget: TurnBudget, turn: TurnCompaction, refusal: string): Promise<TurnOutcome | null> {
  return compactInTurn(budget, turn, await usedTokens(budget, turn.history, turn.fixed), refusal);
}

/** Compacts before a request of this turn; the turn's end when compaction failed, else null. */
async function compactInTurn(
  budget: TurnBudget,
  turn: TurnCompaction,
  used: number,
  /** The service refused the request as too long (this message): the window setting is too large, so what is in use now is the limit. */
  refusal?: string,
): Promise<TurnOutcome | null> {
  const window = refusal === undefined ? budget.settings.window : Math.min(budget.settings.window, used);
  const result = await compact({
    history: turn.history,
    positions: budget.positions,
    log: turn.log,
    model: turn.model,
    counter: await exactCounter(budget),
    window,
    trigger: 'auto',
    inTurn: true,
    tokensBefore: used,
    signal: turn.signal,
    cacheKey: turn.cacheKey,
  });
  if (!result.ok) {
    if (result.reason === 'aborted') return stopped();
    // Nothing to summarize but the request still fits: send it as it is.
    const now = budget.budget.used(budget.counter, turn.history, turn.fixed);
    if (result.reason === 'nothing_to_summarize' && refusal === undefined && now <= budget.settings.window) return null;
    return { status: 'failed', message: result.reason === 'nothing_to_summarize' && refusal !== undefined ? refusal : result.message };
  }
  budget.budget.reset();
  turn.emit(result.event);
  return null;
}
