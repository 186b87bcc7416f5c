// The context budget: how many tokens the next request will use, and whether
// that reaches the point where Mino compacts first. The service's own count
// (the last response's input + output tokens) is the base; only what was added
// since is estimated, so errors in the estimate stay small.
//
// The base is the service's word, and a service can be wrong or lie: one that
// reports 15 tokens for a 50 MB answer would have that answer sent back
// whole, request after request, without a compaction. So the history a report
// covers is also counted by Mino: with the real tokenizer whenever a turn has
// it, and the larger of the two is the base; before the tokenizer is loaded
// (it costs start-up time), a report is checked against the fewest tokens the
// history could possibly be, and one below that is replaced by Mino's count.
import type { HistoryItem, ModelUsage, ToolSpec } from '../model/types';
import { BYTE_BOUND_COUNTER, itemsTokens, type TokenCounter } from './tokens';

/**
 * No token stands for more bytes than this: o200k_base's longest is 128 bytes,
 * and this leaves as much again for other services' tokenizers. A history of
 * N bytes is at least N / MAX_TOKEN_BYTES tokens for any of them.
 */
export const MAX_TOKEN_BYTES = 256;

export interface ContextSettings {
  /** The model's context window, in tokens. */
  window: number;
  /** Compact before a request that would use this share of the window (0.8 = 80%). */
  compactAt: number;
}

/** What the service last reported, and how many history items that report covered. */
export interface ReportedUsage {
  tokens: number;
  coveredItems: number;
}

export class ContextBudget {
  private reported: ReportedUsage | null;

  constructor(reported: ReportedUsage | null = null) {
    this.reported = reported;
  }

  /** After a response was added to `history`: its input and output are what the history holds now. */
  report(usage: ModelUsage, historyLength: number): void {
    this.reported = { tokens: usage.inputTokens + usage.outputTokens, coveredItems: historyLength };
  }

  /** The history was replaced (compaction, clear): nothing the service said still applies. */
  reset(): void {
    this.reported = null;
  }

  /**
   * Whether used() counts anything itself for this history, rather than only
   * repeating what the service reported: it does unless the report covers the
   * whole history and is a size the history could have.
   */
  counts(history: readonly HistoryItem[]): boolean {
    if (!this.reported || this.reported.coveredItems !== history.length) return true;
    return !this.plausible(history);
  }

  /**
   * Tokens a request with this history would use. Of the history a report
   * covers, Mino's own count is taken when it is larger, if `counter` is a
   * real tokenizer or the report is below what the history could be. Only
   * the history is compared, not the instructions and tools: the report counts
   * those too, in the service's own way, and they are not what answers add.
   */
  used(counter: TokenCounter, history: readonly HistoryItem[], fixed: { instructions: string; tools: readonly ToolSpec[] }): number {
    if (this.reported && this.reported.coveredItems <= history.length) {
      const covered = history.slice(0, this.reported.coveredItems);
      const checked = counter.exact === true || !this.plausible(covered);
      const base = checked ? Math.max(this.reported.tokens, itemsTokens(counter, covered)) : this.reported.tokens;
      return base + itemsTokens(counter, history.slice(this.reported.coveredItems));
    }
    return fixedTokens(counter, fixed) + itemsTokens(counter, history);
  }

  /** The report is at least the fewest tokens `covered` could be (MAX_TOKEN_BYTES). */
  private plausible(covered: readonly HistoryItem[]): boolean {
    return this.reported !== null && this.reported.tokens >= Math.floor(itemsTokens(BYTE_BOUND_COUNTER, covered) / MAX_TOKEN_BYTES);
  }
}

/** The instructions and tool definitions every request carries. */
export function fixedTokens(counter: TokenCounter, fixed: { instructions: string; tools: readonly ToolSpec[] }): number {
  return counter.count(fixed.instructions) + (fixed.tools.length > 0 ? counter.count(JSON.stringify(fixed.tools)) : 0);
}

export function compactionThreshold(settings: ContextSettings): number {
  return Math.floor(settings.window * settings.compactAt);
}
