import { describe, expect, it } from 'vitest';
import { ContextBudget } from '../../../src/main/core/context/budget';
import { ESTIMATE_COUNTER, tokenCounterFor } from '../../../src/main/core/context/tokens';
import type { HistoryItem } from '../../../src/main/core/model/types';

describe('token counting', () => {
  it("counts OpenAI model families with gpt-tokenizer and others with a conservative estimate, and names which", async () => {
    const openai = await tokenCounterFor('gpt-5-mini');
    expect(openai.name).toBe('gpt-tokenizer o200k_base');
    expect(openai.count('hello world')).toBe(2);
    // Text that names a special token is ordinary text, not an error.
    expect(openai.count('<|endoftext|>')).toBeGreaterThan(0);
    const other = await tokenCounterFor('qwen2.5-coder');
    expect(other).toBe(ESTIMATE_COUNTER);
    const code = 'function add(a, b) { return a + b; }\n'.repeat(50);
    expect(other.count(code)).toBeGreaterThanOrEqual(openai.count(code));
  });

  it('starts from what the service reported and estimates only what was added since', () => {
    const budget = new ContextBudget();
    const history: HistoryItem[] = [{ type: 'message', role: 'user', text: 'hi' }];
    const fixed = { instructions: 'x'.repeat(300), tools: [] };
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(120 + 1 + 4);
    history.push({ type: 'message', role: 'assistant', text: 'hello' });
    budget.report({ inputTokens: 5_000, outputTokens: 40 }, history.length);
    history.push({ type: 'function_call_output', call_id: 'c', output: 'y'.repeat(3_000) });
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(5_040 + 1_200 + 4);
    budget.reset();
    expect(budget.used(ESTIMATE_COUNTER, history, fixed)).toBe(120 + (1 + 4) + (2 + 4) + (1_200 + 4));
  });
});
