// The session's Changes view: each turn that changed files, newest first,
// with its files, line counts and diffs, what cannot be tracked (bash, MCP),
// and Undo / Redo. Undo is the person's own act: a confirmation lists the
// files, and the outcome says which were restored and which were left alone.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReversalTarget, TurnSummaryView } from '../../../../shared/changes';
import { UNCOUNTED_ACTIONS } from '../../../../shared/changes';
import { DiffView } from '../../components/DiffView';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { api, errorMessage } from '../../lib/api';
import { ReversalConfirm, ReversalReport, useReversal } from './reversal';
import './Changes.css';

export function ChangesDialog({ onClose }: { onClose(): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  const [turns, setTurns] = useState<TurnSummaryView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(() => {
    api.listChanges().then((value) => setTurns(value.turns), (failure: unknown) => setLoadError(errorMessage(failure)));
  }, []);
  useEffect(load, [load]);
  const reversal = useReversal(load);

  return (
    // Wide: a side-by-side diff needs room for two columns of code.
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} className="changes-view" testId="changes-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Changes</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorMessage text={reversal.error ?? loadError} />
      {reversal.report && <ReversalReport report={reversal.report} />}
      {turns && turns.length === 0 && <p className="muted">No turn of this session changed files.</p>}
      {turns?.map((turn) => (
        <TurnChanges key={turn.turn} turn={turn} disabled={reversal.working} onReverse={(target) => void reversal.ask(target)} />
      ))}
      <ReversalConfirm reversal={reversal} />
    </ModalDialog>
  );
}

function TurnChanges({ turn, disabled, onReverse }: { turn: TurnSummaryView; disabled: boolean; onReverse(target: ReversalTarget): void }) {
  const anyApplied = turn.files.some((f) => f.state === 'applied' && !f.notUndoable);
  const anyUndone = turn.files.some((f) => f.state === 'undone');
  return (
    <section className="form" aria-label={`Turn ${turn.turn}`} data-testid="turn-changes">
      <h3>
        Turn {turn.turn}: {turn.question}
      </h3>
      <ul className="session-list">
        {turn.files.map((file) => (
          <li key={file.path} className="session-item" data-testid="changed-file">
            <div className="session-summary">
              <span className="recent-name">
                {file.action} {file.path}
                {!UNCOUNTED_ACTIONS.has(file.action) && ` (+${file.added} -${file.removed})`}
              </span>
              {file.notUndoable && <span className="error small">Cannot be undone: {file.notUndoable}.</span>}
              {file.diff && (
                <details>
                  <summary>Show diff</summary>
                  <DiffView diff={file.diff} />
                </details>
              )}
            </div>
            {file.state === 'undone' ? (
              <span className="badge badge-neutral" data-testid="file-state">
                Undone
              </span>
            ) : (
              file.callIds.length === 1 &&
              !file.notUndoable && (
                <button type="button" className="small" disabled={disabled} onClick={() => onReverse({ action: 'undo', callId: file.callIds[0] })}>
                  Undo this change
                </button>
              )
            )}
          </li>
        ))}
      </ul>
      {turn.untrackedNote && <p className="muted small">{turn.untrackedNote}</p>}
      <div className="actions">
        {anyApplied && (
          <button type="button" disabled={disabled} onClick={() => onReverse({ action: 'undo', turn: turn.turn })}>
            Undo this turn
          </button>
        )}
        {anyUndone && (
          <button type="button" disabled={disabled} onClick={() => onReverse({ action: 'redo', turn: turn.turn })}>
            Redo this turn
          </button>
        )}
      </div>
    </section>
  );
}
