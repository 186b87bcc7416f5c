import { describe, expect, it } from 'vitest';
import { ContextBudget, MAX_TOKEN_BYTES } from '../../../src/main/core/context/budget';
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

  it('counts itself only when the report is below the fewest tokens the history could be, so a turn loads the tokenizer then and not every turn', () => {
    const budget = new ContextBudget();
    const history: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'write' },
      { type: 'message', role: 'assistant', text: 'y'.repeat(20_000) },
    ];
    const fewest = Math.floor(itemsTokens(BYTE_BOUND_COUNTER, history) / MAX_TOKEN_BYTES);
    budget.report({ inputTokens: fewest - 1, outputTokens: 0 }, history.length);
    expect(budget.counts(history)).toBe(true);
    budget.report({ inputTokens: fewest, outputTokens: 0 }, history.length);
    expect(budget.counts(history)).toBe(false);
    // A plausible report is the figure while only a bound or an estimate is at hand.
    expect(budget.used(BYTE_BOUND_COUNTER, history, fixed)).toBe(fewest);
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(fewest);
  });

  it('sets the real tokenizer’s count against any report, plausible or not', () => {
    const budget = new ContextBudget();
    const history: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'write' },
      { type: 'message', role: 'assistant', text: 'word '.repeat(4_000) },
    ];
    const tokenizer = { name: 'a real tokenizer', exact: true, count: (text: string) => text.split(' ').length };
    const own = itemsTokens(tokenizer, history);
    // Plausible by bytes (above the fewest), yet below what the tokenizer counts.
    budget.report({ inputTokens: own - 1_000, outputTokens: 0 }, history.length);
    expect(budget.counts(history)).toBe(false);
    expect(budget.used(tokenizer, history, fixed)).toBe(own);
    budget.report({ inputTokens: own + 7, outputTokens: 0 }, history.length);
    expect(budget.used(tokenizer, history, fixed)).toBe(own + 7);
  });
});
