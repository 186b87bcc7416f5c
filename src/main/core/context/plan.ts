// Which part of the history a compaction summarizes and which it keeps
// verbatim: the current turn's items always, then as many whole recent turns
// as fit in a set share of the window. Cuts fall only where a turn starts.
import type { HistoryItem } from '../model/types';
import { safeCuts, turnStarts } from './pairing';
import { itemsTokens, type TokenCounter } from './tokens';

/** At most this share of the window is kept verbatim (besides the current turn, which is always kept). */
export const KEPT_SHARE = 0.3;

export type CompactionPlan =
  | { ok: true; keptFrom: number; keptTokens: number }
  | { ok: false; reason: 'nothing_to_summarize' | 'kept_exceeds_window'; keptTokens: number };

/**
 * `inTurn`: a turn is running, so everything from its message on is kept.
 * Otherwise (a compaction the person asked for between turns) only whole
 * turns are kept, and only as many as fit.
 */
export function planCompaction(
  history: readonly HistoryItem[],
  counter: TokenCounter,
  options: { window: number; inTurn: boolean; keptShare?: number },
): CompactionPlan {
  const starts = turnStarts(history);
  const share = (options.keptShare ?? KEPT_SHARE) * options.window;
  let keptFrom = options.inTurn && starts.length > 0 ? starts.at(-1)! : history.length;
  let keptTokens = itemsTokens(counter, history.slice(keptFrom));
  if (keptTokens > options.window) return { ok: false, reason: 'kept_exceeds_window', keptTokens };
  const isSafeCut = safeCuts(history);
  for (let i = starts.length - 1; i >= 0; i -= 1) {
    const start = starts[i]!;
    if (start >= keptFrom) continue;
    const tokens = itemsTokens(counter, history.slice(start, keptFrom)) + keptTokens;
    if (tokens > share || !isSafeCut(start)) break;
    keptFrom = start;
    keptTokens = tokens;
  }
  // Only a summary already (or nothing at all) before the kept part: a new summary would replace nothing.
  const summarized = history.slice(0, keptFrom);
  if (!summarized.some((item) => item.type !== 'summary')) return { ok: false, reason: 'nothing_to_summarize', keptTokens };
  return { ok: true, keptFrom, keptTokens };
}
