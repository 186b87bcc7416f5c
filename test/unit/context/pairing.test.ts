import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeCut, safeCuts } from '../../../src/main/core/context/pairing';
import { planCompaction } from '../../../src/main/core/context/plan';
import { ESTIMATE_COUNTER, itemsTokens } from '../../../src/main/core/context/tokens';
import type { HistoryItem } from '../../../src/main/core/model/types';

const user = (text: string): HistoryItem => ({ type: 'message', role: 'user', text });
const reasoning = (id: string): HistoryItem => ({ type: 'reasoning', id, summary: [], encrypted_content: 'enc' });
const call = (id: string): HistoryItem => ({ type: 'function_call', call_id: id, name: 'read_file', arguments: '{}' });
const output = (id: string, text = 'ok'): HistoryItem => ({ type: 'function_call_output', call_id: id, output: text });
const answer = (text: string): HistoryItem => ({ type: 'message', role: 'assistant', text });

const history: HistoryItem[] = [
  user('one'), reasoning('r1'), call('c1'), output('c1', 'x'.repeat(3000)), answer('done one'),
  user('two'), reasoning('r2'), call('c2'), call('c3'), output('c2'), output('c3'), answer('done two'),
  user('three'),
];

describe('where history may be cut', () => {
  it('answers for every index at once exactly as isSafeCut does, however calls, outputs and reasoning are ordered', () => {
    const ids = ['a', 'b', 'c'];
    const item = fc.oneof(
      fc.constant(user('u')),
      fc.constant(answer('x')),
      fc.constant(reasoning('r')),
      fc.constantFrom(...ids).map(call),
      fc.constantFrom(...ids).map((id) => output(id)),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), (items) => {
        const fast = safeCuts(items);
        for (let index = -1; index <= items.length + 1; index += 1) expect(fast(index)).toBe(isSafeCut(items, index));
      }),
      { numRuns: 2000 },
    );
    const all = safeCuts(history);
    expect([2, 3, 5, 9, 10, 11].map(all)).toEqual([false, false, true, false, false, true]);
  });

  it('never separates a call from its output, nor a reasoning item from the call after it', () => {
    expect(isSafeCut(history, 5)).toBe(true); // at a turn start
    expect(isSafeCut(history, 2)).toBe(false); // reasoning r1 | call c1
    expect(isSafeCut(history, 3)).toBe(false); // call c1 | its output
    expect(isSafeCut(history, 9)).toBe(false); // c2 and c3 | their outputs
    expect(isSafeCut(history, 10)).toBe(false); // c3 | its output
    expect(isSafeCut(history, 11)).toBe(true); // after both outputs
  });

  it('keeps the current turn and as many whole recent turns as fit the kept share, cutting only at a turn start', () => {
    const secondAndThird = itemsTokens(ESTIMATE_COUNTER, history.slice(5));
    const plan = planCompaction(history, ESTIMATE_COUNTER, { window: Math.ceil(secondAndThird / 0.3) + 1, inTurn: true });
    expect(plan).toMatchObject({ ok: true, keptFrom: 5 });
    const tight = planCompaction(history, ESTIMATE_COUNTER, { window: 100, inTurn: true });
    expect(tight).toMatchObject({ ok: true, keptFrom: 12 });
  });

  it('between turns keeps only whole turns, and says when there is nothing to summarize or the kept part cannot fit', () => {
    expect(planCompaction(history, ESTIMATE_COUNTER, { window: 100, inTurn: false })).toMatchObject({ ok: true, keptFrom: 12 });
    expect(planCompaction([user('only')], ESTIMATE_COUNTER, { window: 10_000, inTurn: true })).toMatchObject({ ok: false, reason: 'nothing_to_summarize' });
    expect(planCompaction([...history, user('y'.repeat(3_000))], ESTIMATE_COUNTER, { window: 500, inTurn: true })).toMatchObject({
      ok: false,
      reason: 'kept_exceeds_window',
    });
  });
});
