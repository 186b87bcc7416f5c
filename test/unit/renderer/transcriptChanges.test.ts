import { describe, expect, it } from 'vitest';
import type { TurnSummaryView } from '../../../src/shared/changes';
import type { TurnEvent } from '../../../src/shared/sessions';
import { withChangeSummaries } from '../../../src/renderer/src/features/changes/transcriptChanges';
import { transcriptFrom } from '../../../src/renderer/src/features/transcript/transcriptModel';

/** When the events are applied; these tests do not depend on it. */
const AT = 1_000;
const summary = (turn: number): TurnSummaryView => ({ turn, question: `q${turn}`, files: [], untrackedCalls: 0, untrackedNote: null });

/** Turn 1 ended; turn 2 is under way. */
const TWO_TURNS: TurnEvent[] = [
  { type: 'user_message', text: 'q1' },
  { type: 'assistant_text', text: 'a1' },
  { type: 'turn_end', status: 'completed' },
  { type: 'user_message', text: 'q2' },
  { type: 'assistant_delta', delta: 'working' },
];
/** The items' kinds in order, a summary named by its turn. */
const shape = (placed: ReturnType<typeof withChangeSummaries>) => placed.map((item) => (item.kind === 'changes' ? `changes ${item.summary.turn}` : item.kind));

describe('Changes summaries in the transcript', () => {
  it('puts each turn\'s summary after its last item, counting the turns shown as the session\'s last ones', () => {
    // Three turns in the session; the first was cleared away, so the transcript shows turns 2 and 3.
    const { items } = transcriptFrom([
      { type: 'user_message', text: 'q2' },
      { type: 'assistant_text', text: 'a2' },
      { type: 'turn_end', status: 'completed' },
      { type: 'user_message', text: 'q3' },
      { type: 'assistant_text', text: 'a3' },
      { type: 'turn_end', status: 'completed' },
    ], AT);
    const placed = withChangeSummaries(items, { turns: [summary(3), summary(2), summary(1)], turnCount: 3 });
    expect(placed.map((item) => (item.kind === 'changes' ? `changes ${item.summary.turn}` : item.kind))).toEqual([
      'user',
      'assistant',
      'changes 2',
      'user',
      'assistant',
      'changes 3',
    ]);
  });

  it('while turn 2 runs, turn 1\'s summary stays after turn 1, whether or not the changes already count turn 2', () => {
    const { items } = transcriptFrom(TWO_TURNS, AT);
    const expected = ['user', 'assistant', 'changes 1', 'user', 'assistant'];
    // Fetched when turn 1 ended (the usual case), and fetched just after turn 2 began.
    expect(shape(withChangeSummaries(items, { turns: [summary(1)], turnCount: 1 }, true))).toEqual(expected);
    expect(shape(withChangeSummaries(items, { turns: [summary(1)], turnCount: 2 }, true))).toEqual(expected);
  });

  it('just after turn 2 ends, turn 1\'s summary stays after turn 1 while the changes are behind, and once they count turn 2', () => {
    const { items } = transcriptFrom([...TWO_TURNS, { type: 'turn_end', status: 'aborted' }], AT);
    const expected = ['user', 'assistant', 'changes 1', 'user', 'assistant', 'turn_end'];
    // Fetched before turn 2 began (still behind), then fetched again after it ended.
    expect(shape(withChangeSummaries(items, { turns: [summary(1)], turnCount: 1 }, true))).toEqual(expected);
    expect(shape(withChangeSummaries(items, { turns: [summary(1)], turnCount: 2 }))).toEqual(expected);
    expect(shape(withChangeSummaries(items, { turns: [summary(2), summary(1)], turnCount: 2 }))).toEqual([...expected, 'changes 2']);
  });

  it('with the same question asked twice, the changes being behind alone keeps turn 1\'s summary after turn 1', () => {
    const { items } = transcriptFrom([
      { type: 'user_message', text: 'continue' },
      { type: 'assistant_text', text: 'a1' },
      { type: 'turn_end', status: 'completed' },
      { type: 'user_message', text: 'continue' },
      { type: 'assistant_text', text: 'a2' },
      { type: 'turn_end', status: 'completed' },
    ], AT);
    const changes = { turns: [{ ...summary(1), question: 'continue' }], turnCount: 1 };
    // Both readings put the summary on a question of its own text; only knowing the changes are behind decides.
    expect(shape(withChangeSummaries(items, changes, true))).toEqual(['user', 'assistant', 'changes 1', 'user', 'assistant']);
  });

  it('leaves the transcript as it is without changes', () => {
    const { items } = transcriptFrom([{ type: 'user_message', text: 'q' }], AT);
    expect(withChangeSummaries(items, null)).toEqual(items);
    expect(withChangeSummaries(items, { turns: [], turnCount: 1 })).toEqual(items);
  });
});
