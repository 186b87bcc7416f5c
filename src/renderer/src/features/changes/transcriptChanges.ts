// Places each turn's Changes summary in the transcript, after the turn's last
// item. Pure. The transcript shows the turns since the last clear, which are
// the session's last ones, so the first question shown is turn
// turnCount - (questions shown) + 1.
import type { SessionChangesView, TurnSummaryView } from '../../../../shared/changes';
import type { TranscriptItem } from '../transcript/transcriptModel';

export interface ChangesItem {
  kind: 'changes';
  key: string;
  summary: TurnSummaryView;
}

export function withChangeSummaries(items: readonly TranscriptItem[], changes: SessionChangesView | null): Array<TranscriptItem | ChangesItem> {
  if (!changes || changes.turns.length === 0) return [...items];
  const byTurn = new Map(changes.turns.map((turn) => [turn.turn, turn]));
  const shownQuestions = items.filter((item) => item.kind === 'user').length;
  let turn = changes.turnCount - shownQuestions;
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
