// A turn's Changes summary in the transcript: each file with what happened
// to it and its lines added and removed, its combined diff on request, and
// what the turn ran that cannot be tracked.
import type { TurnSummaryView } from '../../../../shared/changes';
import { UNCOUNTED_ACTIONS } from '../../../../shared/changes';
import { DiffView } from '../../components/DiffView';

export function TurnChangesSummary({ summary }: { summary: TurnSummaryView }) {
  return (
    <section className="tool-card" aria-label={`Changes in turn ${summary.turn}`} data-testid="turn-changes-summary">
      <h3 className="tool-card-title">Changes</h3>
      <ul className="plain-list">
        {summary.files.map((file) => (
          <li key={file.path}>
            <details>
              <summary>
                {file.action} {file.path}
                {!UNCOUNTED_ACTIONS.has(file.action) && ` (+${file.added} -${file.removed})`}
                {file.state === 'undone' && ' (undone)'}
              </summary>
              {file.diff && <DiffView diff={file.diff} />}
              {file.notUndoable && <p className="error small">Cannot be undone: {file.notUndoable}.</p>}
            </details>
          </li>
        ))}
      </ul>
      {summary.untrackedNote && <p className="muted small">{summary.untrackedNote}</p>}
      <p className="muted small">Undo or redo it from Changes in the toolbar.</p>
    </section>
  );
}
