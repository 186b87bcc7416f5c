import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeltaBatcher } from '../../../src/main/service/features/deltaBatcher';
import type { TurnEvent } from '../../../src/shared/sessions';

afterEach(() => {
  vi.useRealTimers();
});

describe('DeltaBatcher', () => {
  it('joins deltas that arrive together into one, sent when the interval passes', () => {
    vi.useFakeTimers();
    const sent: TurnEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    for (const delta of ['a', 'b', 'c']) batcher.push({ type: 'assistant_delta', delta });
    expect(sent).toEqual([]);
    vi.runAllTimers();
    expect(sent).toEqual([{ type: 'assistant_delta', delta: 'abc' }]);
  });

  it('sends gathered text before any other event, keeping the order', () => {
    vi.useFakeTimers();
    const sent: TurnEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    batcher.push({ type: 'assistant_delta', delta: 'Hel' });
    batcher.push({ type: 'assistant_delta', delta: 'lo' });
    batcher.push({ type: 'assistant_text', text: 'Hello' });
    batcher.push({ type: 'turn_end', status: 'completed' });
    vi.runAllTimers();
    expect(sent).toEqual([
      { type: 'assistant_delta', delta: 'Hello' },
      { type: 'assistant_text', text: 'Hello' },
      { type: 'turn_end', status: 'completed' },
    ]);
  });

  it('sends nothing for an explicit flush with no text', () => {
    const sent: TurnEvent[] = [];
    new DeltaBatcher((event) => sent.push(event)).flush();
    expect(sent).toEqual([]);
  });
});
