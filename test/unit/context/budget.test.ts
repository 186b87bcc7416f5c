import { describe, expect, it } from 'vitest';
import { ContextBudget } from '../../../src/main/core/context/budget';
import { BYTE_BOUND_COUNTER, ESTIMATE_COUNTER, itemsTokens } from '../../../src/main/core/context/tokens';
import type { HistoryItem } from '../../../src/main/core/model/types';

const fixed = { instructions: 'x'.repeat(3_000), tools: [] };

describe('the context budget and the usage a service reports', () => {
  it('takes the report when it covers at least what Mino counts in the history, so the instructions are not counted twice', () => {
    const budget = new ContextBudget();
    const history: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'hi' },
      { type: 'message', role: 'assistant', text: 'hello' },
    ];
    budget.report({ inputTokens: 1_500, outputTokens: 40 }, history.length);
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(1_540);
    expect(budget.counts(history)).toBe(false);
  });

  it('takes Mino’s own count of the history the report covers when it is larger than the report', () => {
    const budget = new ContextBudget();
    const answer = 'z'.repeat(50_000);
    const history: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'write a lot' },
      { type: 'message', role: 'assistant', text: answer },
    ];
    // The service says 15 tokens for 50 KB of answer.
    budget.report({ inputTokens: 10, outputTokens: 5 }, history.length);
    const own = itemsTokens(ESTIMATE_COUNTER, history);
    expect(own).toBeGreaterThan(20_000);
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(own);
    // What was added since is counted on top, as before.
    history.push({ type: 'message', role: 'user', text: 'next' });
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(own + itemsTokens(ESTIMATE_COUNTER, history.slice(2)));
  });

  it('says it counts whenever a count could exceed the report, so a turn counting with a bound loads the exact counter then', () => {
    const budget = new ContextBudget();
    const history: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'write' },
      { type: 'message', role: 'assistant', text: 'y'.repeat(2_000) },
    ];
    const bound = itemsTokens(BYTE_BOUND_COUNTER, history);
    budget.report({ inputTokens: bound - 100, outputTokens: 99 }, history.length);
    expect(budget.counts(history)).toBe(true);
    budget.report({ inputTokens: bound - 100, outputTokens: 100 }, history.length);
    expect(budget.counts(history)).toBe(false);
  });
});
