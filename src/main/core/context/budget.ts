// The context budget: how many tokens the next request will use, and whether
// that reaches the point where Mino compacts first. The service's own count
// (the last response's input + output tokens) is the base; only what was added
// since is estimated, so errors in the estimate stay small.
//
// The base is the service's word, and a service can be wrong or lie: one that
// reports 15 tokens for a 50 MB answer would have that answer sent back
// whole, request after request, without a compaction. So the history a report
// covers is also counted by Mino, and the larger of the two is the base.
import type { HistoryItem, ModelUsage, ToolSpec } from '../model/types';
import { BYTE_BOUND_COUNTER, itemsTokens, type TokenCounter } from './tokens';

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
   * whole history and is at least the history's upper bound (one token per
   * byte, above what any counter gives), so no count could exceed it.
   */
  counts(history: readonly HistoryItem[]): boolean {
    if (!this.reported || this.reported.coveredItems !== history.length) return true;
    return itemsTokens(BYTE_BOUND_COUNTER, history) > this.reported.tokens;
  }

  /**
   * Tokens a request with this history would use. Of the history a report
   * covers, Mino's own count is taken when it is larger. Only the history is
   * compared, not the instructions and tools: the report counts those too, in
   * the service's own way, and they are not what a service's answers add.
   */
  used(counter: TokenCounter, history: readonly HistoryItem[], fixed: { instructions: string; tools: readonly ToolSpec[] }): number {
    if (this.reported && this.reported.coveredItems <= history.length) {
      const covered = history.slice(0, this.reported.coveredItems);
      const base = Math.max(this.reported.tokens, itemsTokens(counter, covered));
      return base + itemsTokens(counter, history.slice(this.reported.coveredItems));
    }
    return fixedTokens(counter, fixed) + itemsTokens(counter, history);
  }
}

/** The instructions and tool definitions every request carries. */
export function fixedTokens(counter: TokenCounter, fixed: { instructions: string; tools: readonly ToolSpec[] }): number {
  return counter.count(fixed.instructions) + (fixed.tools.length > 0 ? counter.count(JSON.stringify(fixed.tools)) : 0);
}

export function compactionThreshold(settings: ContextSettings): number {
  return Math.floor(settings.window * settings.compactAt);
}
