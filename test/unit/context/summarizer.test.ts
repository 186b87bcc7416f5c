// The summarizer's input: as much of the history as fits, whole turns dropped
// from the oldest end. Counted once with running totals; it must give what
// dropping one turn at a time and counting again gives, on any history.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../../src/main/core/model/types';
import { turnStarts } from '../../../src/main/core/context/pairing';
import { HANDOFF_REQUEST, summarizerInput } from '../../../src/main/core/context/summarizer';
import { ESTIMATE_COUNTER, itemsTokens, type TokenCounter } from '../../../src/main/core/context/tokens';

/** The algorithm as it was first written: drop the oldest turn, count everything again, repeat. */
function oneTurnAtATime(items: readonly HistoryItem[], counter: TokenCounter, limit: number): HistoryItem[] {
  let input = [...items];
  let omitted = false;
  while (itemsTokens(counter, input) > limit) {
    const leading = input[0]?.type === 'summary' ? 1 : 0;
    const next = turnStarts(input).find((start) => start > leading);
    if (next === undefined) break;
    input = [...input.slice(0, leading), ...input.slice(next)];
    omitted = true;
  }
  const request = omitted ? `[An earlier part of the conversation was too long to summarize and is left out.]\n\n${HANDOFF_REQUEST}` : HANDOFF_REQUEST;
  return [...input, { type: 'message', role: 'user', text: request }];
}

/** Counts characters: small, varied numbers, so limits fall between turns as often as on them. */
const CHARACTERS: TokenCounter = { name: 'characters', count: (text) => text.length };

const text = fc.string({ maxLength: 40 });
const item: fc.Arbitrary<HistoryItem> = fc.oneof(
  { weight: 3, arbitrary: text.map((t): HistoryItem => ({ type: 'message', role: 'user', text: t })) },
  { weight: 3, arbitrary: text.map((t): HistoryItem => ({ type: 'message', role: 'assistant', text: t })) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(20), text).map(([n, t]): HistoryItem => ({ type: 'function_call', call_id: `c${n}`, name: 'read_file', arguments: t })) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(20), text).map(([n, t]): HistoryItem => ({ type: 'function_call_output', call_id: `c${n}`, output: t })) },
  {
    weight: 1,
    arbitrary: fc.tuple(text, fc.option(fc.string({ maxLength: 30 }), { nil: undefined })).map(
      ([t, encrypted]): HistoryItem => ({ type: 'reasoning', id: 'r', summary: [{ type: 'summary_text', text: t }], ...(encrypted === undefined ? {} : { encrypted_content: encrypted }) }),
    ),
  },
  // A summary anywhere: at the start it is kept, elsewhere it is an item like any other.
  { weight: 1, arbitrary: text.map((t): HistoryItem => ({ type: 'summary', text: t, author: 'model' })) },
);
const history = fc.array(item, { maxLength: 60 });

describe('summarizerInput', () => {
  it('gives what dropping one turn at a time and counting again gives, on any history and limit', () => {
    fc.assert(
      fc.property(history, fc.constantFrom(CHARACTERS, ESTIMATE_COUNTER), fc.double({ min: -0.1, max: 1.2, noNaN: true }), (items, counter, share) => {
        const limit = Math.floor(itemsTokens(counter, items) * share);
        expect(summarizerInput(items, counter, limit)).toEqual(oneTurnAtATime(items, counter, limit));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with it also where the limit is exactly what is left after some turns are dropped, or one token off', () => {
    fc.assert(
      fc.property(history, fc.constantFrom(CHARACTERS, ESTIMATE_COUNTER), fc.nat(), fc.integer({ min: -1, max: 1 }), (items, counter, pick, offset) => {
        const leading = items[0]?.type === 'summary' ? 1 : 0;
        const fits = turnStarts(items)
          .filter((start) => start > leading)
          .map((start) => itemsTokens(counter, [...items.slice(0, leading), ...items.slice(start)]));
        const limit = (fits.length > 0 ? fits[pick % fits.length]! : itemsTokens(counter, items)) + offset;
        expect(summarizerInput(items, counter, limit)).toEqual(oneTurnAtATime(items, counter, limit));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the same item objects, so their counts and record positions still apply', () => {
    const summary: HistoryItem = { type: 'summary', text: 'earlier', author: 'person' };
    const turns = Array.from({ length: 5 }, (_, i): HistoryItem[] => [
      { type: 'message', role: 'user', text: `question ${i}` },
      { type: 'message', role: 'assistant', text: 'x'.repeat(100) },
    ]).flat();
    const items = [summary, ...turns];
    const input = summarizerInput(items, CHARACTERS, 250);
    // The summary, then the last two turns (2 x ~110 characters), then the request.
    expect(input.slice(0, -1)).toEqual([summary, ...turns.slice(6)]);
    expect(input[0]).toBe(summary);
    expect(input[1]).toBe(turns[6]);
    expect(input.at(-1)).toMatchObject({ type: 'message', role: 'user', text: expect.stringContaining('left out') });
  });

  it('keeps a history that fits as it is, and a last turn that alone does not fit', () => {
    const items: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'a' },
      { type: 'message', role: 'user', text: 'b'.repeat(50) },
    ];
    expect(summarizerInput(items, CHARACTERS, 1_000)).toEqual([...items, { type: 'message', role: 'user', text: HANDOFF_REQUEST }]);
    expect(summarizerInput(items, CHARACTERS, 10).slice(0, -1)).toEqual([items[1]]);
  });

});
