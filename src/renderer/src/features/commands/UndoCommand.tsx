// /undo: the undo of the latest turn that changed files, taken as a turn's
// Undo button takes it (features/changes/reversal.tsx): the files are listed
// for the person's yes first, and the outcome says what was restored and what
// was left as it is. Mounted with the session's toolbar, whose actions wait
// for a running turn, as this one does.
import { useEffect } from 'react';
import type { ReversalReportView } from '../../../../shared/changes';
import { ReversalConfirm, useReversal, VERB } from '../changes/reversal';
import { useCommandHandler, WAIT_FOR_TURN } from './windowCommands';

interface UndoCommandProps {
  /** A turn runs (or another session action does): /undo waits. */
  waiting: boolean;
  /** The undo was attempted: what the window shows of the session's changes is read again. */
  onDone?(): void;
  onMessage(message: string | null, isError?: boolean): void;
}

export function UndoCommand({ waiting, onDone, onMessage }: UndoCommandProps) {
  const reversal = useReversal(() => onDone?.());
  useCommandHandler('undo', () => {
    if (waiting) throw new Error(WAIT_FOR_TURN);
    void reversal.ask({ action: 'undo' });
    return null;
  });
  useEffect(() => {
    if (reversal.error !== null) onMessage(reversal.error, true);
  }, [reversal.error]);
  useEffect(() => {
    if (reversal.report !== null) onMessage(reportLine(reversal.report));
  }, [reversal.report]);
  return <ReversalConfirm reversal={reversal} />;
}

/** The report in one line: how many files were restored and how many left alone (Changes shows each with why). */
function reportLine(report: ReversalReportView): string {
  const files = [...report.resumed, ...report.files];
  const skipped = files.filter((file) => file.outcome === 'skipped').length;
  const turn = report.turn !== null ? ` of turn ${report.turn}` : '';
  const left = skipped > 0 ? `, ${skipped} left as they are (Changes shows why)` : '';
  return `${VERB[report.action]}${turn}: ${files.length - skipped} restored${left}.`;
}
