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
 * The turn number of the first question shown. `behind`: the changes were
 * fetched before the last question shown began (its turn runs, or ended a
 * moment ago and they are being fetched again), so they likely do not count
 * it, or do (fetched just after it began). Of the readings, the one under
 * which more summaries land on a question of their own text wins; on a tie
 * (the same question asked again), the likely one.
 */
export function firstShownTurn(questions: readonly string[], changes: SessionChangesView, behind: boolean): number {
  const before = changes.turnCount - questions.length + 1;
  const readings = behind ? [before + 1, before] : [before];
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

export function withChangeSummaries(items: readonly TranscriptItem[], changes: SessionChangesView | null, behind = false): Array<TranscriptItem | ChangesItem> {
  if (!changes || changes.turns.length === 0) return [...items];
  const byTurn = new Map(changes.turns.map((turn) => [turn.turn, turn]));
  const questions = items.flatMap((item) => (item.kind === 'user' ? [item.text] : []));
  let turn = firstShownTurn(questions, changes, behind) - 1;
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
