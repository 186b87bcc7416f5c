// Places each turn's Changes summary in the transcript, after the turn's last
// item. Pure. The transcript shows the turns since the last clear, which are
// the session's last ones; the changes were fetched between turns, so while a
// turn runs its question is usually not among the turns they count. Each
// summary is keyed by the turn it belongs to: the reading of the count under
// which the summaries' questions match the questions shown wins.
import type { SessionChangesView, TurnSummaryView } from '../../../../shared/changes';
import type { TranscriptItem } from '../transcript/transcriptModel';

export interface ChangesItem {
  kind: 'changes';
  key: string;
  summary: TurnSummaryView;
}

/**
 * The turn number of the first question shown. The changes may not count the
 * last question shown yet: they were fetched before its turn began. That is
 * the usual case while it runs (`running`), and the case for a moment after
 * it ends, until the changes are fetched again. Both readings are tried; the
 * one under which more summaries land on their own question wins, and on a tie
 * the usual one for the moment.
 */
export function firstShownTurn(questions: readonly string[], changes: SessionChangesView, running: boolean): number {
  const before = changes.turnCount - questions.length + 1;
  const readings = running ? [before + 1, before] : [before, before + 1];
  // How many summaries land on a question of their own text; one on another text rules the reading out.
  const matches = (first: number): number => {
    let count = 0;
    for (const summary of changes.turns) {
      const index = summary.turn - first;
      if (index < 0 || index >= questions.length) continue;
      if (questions[index] !== summary.question) return -1;
      count += 1;
    }
    return count;
  };
  let best = readings[0] as number;
  for (const reading of readings) if (matches(reading) > matches(best)) best = reading;
  return best;
}

export function withChangeSummaries(items: readonly TranscriptItem[], changes: SessionChangesView | null, running = false): Array<TranscriptItem | ChangesItem> {
  if (!changes || changes.turns.length === 0) return [...items];
  const byTurn = new Map(changes.turns.map((turn) => [turn.turn, turn]));
  const questions = items.flatMap((item) => (item.kind === 'user' ? [item.text] : []));
  let turn = firstShownTurn(questions, changes, running) - 1;
  const out: Array<TranscriptItem | ChangesItem> = [];
  let started = false;
  const close = () => {
    // Turns before the first question shown were cleared away: their summaries are in the Changes view only.
    if (!started) return;
    const summary = byTurn.get(turn);
    if (summary) out.push({ kind: 'changes', key: `changes-${turn}`, summary });
  };
  for (const item of items) {
    if (item.kind === 'user') {
      close();
      turn += 1;
      started = true;
    }
    out.push(item);
  }
  close();
  return out;
}
