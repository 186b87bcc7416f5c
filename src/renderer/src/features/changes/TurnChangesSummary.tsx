// A turn's Changes card in the transcript: each file with what happened to it
// and its lines added and removed, its combined diff on request, what the turn
// ran that cannot be tracked, and undo where the change is: *Undo turn*, and
// *Undo* per file, after the same confirmation as the Changes view (never
// clobbering a file changed since), with the outcome shown in the card. A turn
// that changed nothing reviewable has no card.
import type { TurnSummaryView } from '../../../../shared/changes';
import { UNCOUNTED_ACTIONS } from '../../../../shared/changes';
import { DiffView } from '../../components/DiffView';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ReversalConfirm, ReversalReport, useReversal } from './reversal';
import { useTranscriptActions } from './transcriptActions';
import './Changes.css';

export function TurnChangesSummary({ summary }: { summary: TurnSummaryView }) {
  const actions = useTranscriptActions();
  const reversal = useReversal(() => actions?.refreshChanges());
  if (summary.files.length === 0) return null;
  // Offered between turns only: the service refuses an undo while a turn runs.
  const canAct = actions !== null && !actions.busy && !reversal.working;
  const undoable = summary.files.some((file) => file.state === 'applied' && !file.notUndoable);
  return (
    <section className="tool-card" aria-label={`Changes in turn ${summary.turn}`} data-testid="turn-changes-summary">
      <h3 className="tool-card-title">Changes</h3>
      <ul className="plain-list">
        {summary.files.map((file) => (
          <li key={file.path} className="turn-changes-file">
            <details>
              <summary>
                {file.action} {file.path}
                {!UNCOUNTED_ACTIONS.has(file.action) && ` (+${file.added} -${file.removed})`}
                {file.state === 'undone' && ' (undone)'}
              </summary>
              {file.diff && <DiffView diff={file.diff} />}
              {file.notUndoable && <p className="error small">Cannot be undone: {file.notUndoable}.</p>}
            </details>
            {/* One call's changes: a file changed by several calls is undone with its turn. */}
            {canAct && file.state === 'applied' && !file.notUndoable && file.callIds.length === 1 && (
              <button
                type="button"
                className="ghost small"
                aria-label={`Undo the change to ${file.path}`}
                onClick={() => void reversal.ask({ action: 'undo', callId: file.callIds[0] })}
              >
                Undo
              </button>
            )}
          </li>
        ))}
      </ul>
      {summary.untrackedNote && <p className="muted small">{summary.untrackedNote}</p>}
      {canAct && undoable && (
        <div className="turn-changes-actions">
          <button type="button" className="small" onClick={() => void reversal.ask({ action: 'undo', turn: summary.turn })}>
            Undo turn
          </button>
        </div>
      )}
      <ErrorMessage text={reversal.error} />
      {reversal.report && <ReversalReport report={reversal.report} />}
      <ReversalConfirm reversal={reversal} />
    </section>
  );
}
