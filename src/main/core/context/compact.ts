// One compaction: plan the cut, ask the summarizer, save the summary as its
// own record, then replace the in-memory history with [summary] + kept items.
// The record is saved before the history changes, so what the model sees next
// is exactly what a later load rebuilds. On any failure nothing changes.
import type { CompactionEvent } from '../../../shared/sessions';
import { ModelError, type HistoryItem, type ModelClient, type SummaryItem } from '../model/types';
import type { SessionLog } from '../sessions/sessionLog';
import { isTurnStart } from './pairing';
import { planCompaction } from './plan';
import { requestSummary, summarizerInput } from './summarizer';
import { itemsTokens, type TokenCounter } from './tokens';

/**
 * Record positions of history items: a person's message maps to its `user`
 * record, a summary to the first record it summarizes. Cuts fall only at
 * these items, so nothing else needs a position.
 */
export type HistoryPositions = WeakMap<HistoryItem, number>;

export interface CompactOptions {
  history: HistoryItem[];
  positions: HistoryPositions;
  log: SessionLog;
  model: ModelClient;
  counter: TokenCounter;
  window: number;
  trigger: 'auto' | 'manual';
  inTurn: boolean;
  /** Tokens in use before compacting, for the record and the event. */
  tokensBefore: number;
  signal?: AbortSignal;
  cacheKey?: string;
}

export type CompactFailure = 'nothing_to_summarize' | 'kept_exceeds_window' | 'service' | 'empty_summary' | 'aborted';
export type CompactOutcome = { ok: true; event: CompactionEvent } | { ok: false; reason: CompactFailure; message: string };

const UNCHANGED = 'The session was not changed: nothing is lost, and it loads as before.';

export async function compact(options: CompactOptions): Promise<CompactOutcome> {
  const { history, counter, window } = options;
  const plan = planCompaction(history, counter, { window, inTurn: options.inTurn });
  if (!plan.ok) {
    const message =
      plan.reason === 'kept_exceeds_window'
        ? `Compaction cannot make room: the current turn alone uses about ${plan.keptTokens} tokens, more than the context window of ${window}. ${UNCHANGED} Start a new session and ask for a smaller step, or set a larger context window in Settings if your model has one.`
        : `There is nothing to compact yet: the session holds no earlier turn to summarize. ${UNCHANGED}`;
    return { ok: false, reason: plan.reason, message };
  }

  let summary: string;
  try {
    // Room for the request and the summary itself.
    const input = summarizerInput(history.slice(0, plan.keptFrom), counter, Math.floor(window * 0.85));
    summary = await requestSummary(options.model, input, { signal: options.signal, cacheKey: options.cacheKey });
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    if (error.kind === 'aborted') return { ok: false, reason: 'aborted', message: `Compaction was stopped. ${UNCHANGED}` };
    return { ok: false, reason: 'service', message: `Compaction failed while the model service wrote the summary: ${error.message} ${UNCHANGED}` };
  }
  if (!summary) {
    return {
      ok: false,
      reason: 'empty_summary',
      message: `Compaction failed: the model service returned an empty summary. ${UNCHANGED} Send your message again; if this keeps happening, start a new session.`,
    };
  }
  return replaceWithSummary(options, { summary, author: 'model', trigger: options.trigger, keptFrom: plan.keptFrom });
}

/**
 * Saves a compaction record and puts [summary] + history[keptFrom..] in
 * place. Also the path of an edited summary, which replaces the summary at
 * history[0] and keeps everything after it.
 */
export async function replaceWithSummary(
  options: Pick<CompactOptions, 'history' | 'positions' | 'log' | 'counter' | 'window' | 'tokensBefore'>,
  what: { summary: string; author: SummaryItem['author']; trigger: 'auto' | 'manual' | 'edit'; keptFrom: number },
): Promise<CompactOutcome> {
  const { history, positions, log, counter } = options;
  const item: SummaryItem = { type: 'summary', text: what.summary, author: what.author };
  const kept = history.slice(what.keptFrom);
  const tokensAfter = itemsTokens(counter, [item, ...kept]);
  if (tokensAfter > options.window) {
    return {
      ok: false,
      reason: 'kept_exceeds_window',
      message: `Compaction cannot make room: the summary and the kept turns need about ${tokensAfter} tokens, more than the context window of ${options.window}. ${UNCHANGED} Start a new session, or set a larger context window in Settings if your model has one.`,
    };
  }
  const first = history[0];
  const from = (first && positions.get(first)) ?? log.nextPosition;
  const keptItem = history[what.keptFrom];
  const keptFrom = (keptItem && positions.get(keptItem)) ?? log.nextPosition;
  await log.append({
    type: 'compaction',
    trigger: what.trigger,
    author: what.author,
    summary: what.summary,
    summarized: { from, to: keptFrom },
    keptFrom,
    tokensBefore: options.tokensBefore,
    tokensAfter,
    counter: counter.name,
  });
  positions.set(item, from);
  history.splice(0, history.length, item, ...kept);
  return {
    ok: true,
    event: {
      type: 'compaction',
      trigger: what.trigger,
      author: what.author,
      tokensBefore: options.tokensBefore,
      tokensAfter,
      summary: what.summary,
      summarized: { from, to: keptFrom },
      keptTurns: kept.filter(isTurnStart).length,
    },
  };
}
