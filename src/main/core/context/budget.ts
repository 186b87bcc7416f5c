// The context budget: how many tokens the next request will use, and whether
// that reaches the point where Mino compacts first. The service's own count
// (the last response's input + output tokens) is the base; only what was added
// since is estimated, so errors in the estimate stay small.
import type { HistoryItem, ModelUsage, ToolSpec } from '../model/types';
import { itemsTokens, type TokenCounter } from './tokens';

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

  /** Whether used() counts anything itself for this history, rather than only repeating what the service reported. */
  counts(history: readonly HistoryItem[]): boolean {
    return !this.reported || this.reported.coveredItems !== history.length;
  }

  /** Tokens a request with this history would use. */
  used(counter: TokenCounter, history: readonly HistoryItem[], fixed: { instructions: string; tools: readonly ToolSpec[] }): number {
    if (this.reported && this.reported.coveredItems <= history.length) {
      return this.reported.tokens + itemsTokens(counter, history.slice(this.reported.coveredItems));
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
