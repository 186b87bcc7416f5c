// The session's Changes view: each turn that changed files, newest first,
// with its files, line counts and diffs, what cannot be tracked (bash, MCP),
// and Undo / Redo. Undo is the person's own act: a confirmation lists the
// files, and the outcome says which were restored and which were left alone.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReversalPlanView, ReversalReportView, ReversalTarget, TurnSummaryView } from '../../../../shared/changes';
import { UNCOUNTED_ACTIONS } from '../../../../shared/changes';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DiffView } from '../../components/DiffView';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { api, errorMessage } from '../../lib/api';

const VERB = { undo: 'Undo', redo: 'Redo' } as const;

export function ChangesDialog({ onClose }: { onClose(): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  const [turns, setTurns] = useState<TurnSummaryView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ target: ReversalTarget; plan: ReversalPlanView } | null>(null);
  const [report, setReport] = useState<ReversalReportView | null>(null);
  const [working, setWorking] = useState(false);

  const load = useCallback(() => {
    api.listChanges().then((value) => setTurns(value.turns), (failure: unknown) => setError(errorMessage(failure)));
  }, []);
  useEffect(load, [load]);

  async function ask(target: ReversalTarget) {
    setError(null);
    try {
      setPending({ target, plan: await api.planReversal(target) });
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  async function run(target: ReversalTarget) {
    setPending(null);
    setWorking(true);
    try {
      setReport(await api.reverseChanges(target));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWorking(false);
      load();
    }
  }

  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} testId="changes-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Changes</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorMessage text={error} />
      {report && <ReportView report={report} />}
      {turns && turns.length === 0 && <p className="muted">No turn of this session changed files.</p>}
      {turns?.map((turn) => (
        <TurnChanges key={turn.turn} turn={turn} disabled={working} onReverse={ask} />
      ))}
      {pending && (
        <ConfirmDialog
          title={`${VERB[pending.target.action]} ${pending.target.callId ? 'this change' : `turn ${pending.plan.turn}`}?`}
          confirmLabel={VERB[pending.target.action]}
          risky
          testId="reversal-confirm"
          onCancel={() => setPending(null)}
          onConfirm={() => void run(pending.target)}
        >
          <p>
            {pending.target.action === 'undo' ? 'These files go back to how they were before the turn' : 'These files get back what the turn wrote'}, each only if
            it is still exactly what {pending.target.action === 'undo' ? 'the turn left' : 'the undo left'}; a file changed since is left as it is.
          </p>
          <ul data-testid="reversal-files">
            {pending.plan.paths.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </ConfirmDialog>
      )}
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

function ReportView({ report }: { report: ReversalReportView }) {
  const files = [...report.resumed, ...report.files];
  const skipped = files.filter((f) => f.outcome === 'skipped');
  return (
    <section className="banner-info" role="status" data-testid="reversal-report">
      <p>
        {VERB[report.action]}
        {report.turn !== null ? ` of turn ${report.turn}` : ''}: {files.length - skipped.length} restored
        {skipped.length > 0 ? `, ${skipped.length} left as they are` : ''}.
      </p>
      {skipped.map((file) => (
        <div key={file.path}>
          <p className="error small">
            {file.path}: {file.reason}
          </p>
          {file.diff && <DiffView diff={file.diff} />}
        </div>
      ))}
    </section>
  );
}
