// The Evaluate view: runs the built-in safety suite or a case file the person
// chooses (main's own file dialog) through the same code as a session, each
// run in a fresh temporary project, and shows per case how many runs passed
// and which checks failed on which runs. Each run's saved session opens here,
// replayed read-only, in place of the table (Back returns to it).
import { useEffect, useId, useMemo, useRef, type KeyboardEvent } from 'react';
import { MAX_DESKTOP_REPEAT, type EvalPickResult, type EvalSessionView, type EvalView } from '../../../../shared/evaluate';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { Transcript } from '../transcript/Transcript';
import { transcriptFrom } from '../transcript/transcriptModel';
import { useEvaluation, type EvalSource } from './useEvaluation';
import './evaluate.css';

export function EvaluateDialog({ onClose }: { onClose(): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  const evaluation = useEvaluation();
  const { session, view, running, error } = evaluation;

  // In a run's session, Escape goes back to the table rather than closing the view.
  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Escape' || session === null) return;
    event.preventDefault();
    event.stopPropagation();
    evaluation.closeRun();
  }

  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} onKeyDown={keyDown} className="evaluate" testId="evaluate-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Evaluate</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      {session ? (
        <RunSession session={session} onBack={evaluation.closeRun} />
      ) : (
        <>
          <p className="muted small">
            Runs declared cases through the same code as a session, each in a fresh temporary project and home, and scores each run from what it
            saved. Scripted cases check the program without a model; live cases ask this session&apos;s model service.
          </p>
          <RunForm
            ids={ids}
            source={evaluation.source}
            picked={evaluation.picked}
            repeat={evaluation.repeat}
            running={running}
            onSource={evaluation.setSource}
            onRepeat={evaluation.setRepeat}
            onChoose={() => void evaluation.choose()}
            onRun={() => void evaluation.run()}
            onStop={() => void evaluation.stop()}
          />
          <p className="muted small" role="status" aria-live="polite" data-testid="evaluate-status">
            {running ? `Running: ${evaluation.scored} ${evaluation.scored === 1 ? 'run' : 'runs'} scored so far.` : view ? `${view.passed} passed, ${view.failed} failed` : ''}
          </p>
          <ErrorMessage text={error} />
          {view && !running && <Results view={view} onOpenRun={(c, r) => void evaluation.openRun(c, r)} />}
        </>
      )}
      {session && <ErrorMessage text={error} />}
    </ModalDialog>
  );
}

interface RunFormProps {
  ids: string;
  source: EvalSource;
  picked: Extract<EvalPickResult, { picked: true }> | null;
  repeat: string;
  running: boolean;
  onSource(source: EvalSource): void;
  onRepeat(repeat: string): void;
  onChoose(): void;
  onRun(): void;
  onStop(): void;
}

/** Which cases (the suite, or the chosen file), how many runs of each, and Run. */
function RunForm({ ids, source, picked, repeat, running, onSource, onRepeat, onChoose, onRun, onStop }: RunFormProps) {
  const canRun = !running && (source === 'suite' || picked !== null);
  return (
    <>
    <fieldset className="evaluate-source" disabled={running}>
      <legend>Cases</legend>
      <label>
        <input type="radio" name={`${ids}-source`} checked={source === 'suite'} onChange={() => onSource('suite')} />
        The built-in safety suite
      </label>
      <label>
        <input type="radio" name={`${ids}-source`} checked={source === 'file'} disabled={picked === null} onChange={() => onSource('file')} />
        {picked ? (
          <>
            Case file <span className="session-id">{picked.path}</span> ({picked.cases.length} {picked.cases.length === 1 ? 'case' : 'cases'})
          </>
        ) : (
          'A case file (choose one)'
        )}
      </label>
      <button type="button" onClick={onChoose}>
        Choose case file…
      </button>
    </fieldset>
    <div className="evaluate-run">
      <label htmlFor={`${ids}-repeat`}>Runs per case</label>
      <input
        id={`${ids}-repeat`}
        type="number"
        min={1}
        max={MAX_DESKTOP_REPEAT}
        placeholder="as the case says"
        value={repeat}
        disabled={running}
        onChange={(event) => onRepeat(event.target.value)}
      />
      <button type="button" className="primary" disabled={!canRun} onClick={onRun}>
        {running ? 'Running…' : 'Run'}
      </button>
      {running && (
        <button type="button" onClick={onStop}>
          Stop
        </button>
      )}
    </div>
    </>
  );
}

function Results({ view, onOpenRun }: { view: EvalView; onOpenRun(caseName: string, run: number): void }) {
  return (
    <>
      <p className="muted small">
        {view.source === 'the safety suite' ? 'The safety suite' : <span className="session-id">{view.source}</span>}
        {view.service ? `; live cases asked ${view.service}` : ''}. Runs are kept in <span className="session-id">{view.dir}</span>.
      </p>
      <table className="evaluate-table" data-testid="evaluate-results">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Passed</th>
            <th scope="col">Failed checks</th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {view.cases.map((c) => (
            <tr key={c.case} data-testid="evaluate-case" className={c.passed ? 'passed' : 'failed'}>
              <th scope="row">
                {c.case}
                {c.live && <span className="muted small"> (live)</span>}
              </th>
              <td>
                {c.passes}/{c.runs} {c.passed ? '' : '· failed'}
              </td>
              <td>
                {c.failures.length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  <ul>
                    {c.failures.map((f) => (
                      <li key={f.check}>
                        <code>{f.check}</code> on {f.runs.length === 1 ? 'run' : 'runs'} {f.runs.join(', ')}: {f.why}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="evaluate-runs">
                {view.runs
                  .filter((r) => r.case === c.case)
                  .map((r) => (
                    <button
                      key={r.run}
                      type="button"
                      className="ghost small"
                      disabled={!r.hasSession}
                      title={r.hasSession ? undefined : 'This run stopped before its session began.'}
                      aria-label={`Open run ${r.run} of ${c.case} (${r.passed ? 'passed' : 'failed'})`}
                      onClick={() => onOpenRun(c.case, r.run)}
                    >
                      Run {r.run} {r.passed ? '✓' : '✗'}
                    </button>
                  ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function RunSession({ session, onBack }: { session: EvalSessionView; onBack(): void }) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => back.current?.focus(), []);
  // The saved run, shown as a window shows a resumed session; nothing in it runs again.
  const transcript = useMemo(() => transcriptFrom(session.events, Date.now()), [session.events]);
  return (
    <section className="evaluate-session" aria-label={`Run ${session.run} of ${session.case}`} data-testid="evaluate-session">
      <div className="evaluate-session-bar">
        <button type="button" ref={back} onClick={onBack}>
          Back to results
        </button>
        <p className="muted small">
          Run {session.run} of {session.case}, as it was saved in <span className="session-id">{session.log}</span>. Read-only.
        </p>
      </div>
      {session.problems.length > 0 && (
        <ul className="error small">
          {session.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <Transcript items={transcript.items} summarizedBefore={transcript.summarizedBefore} />
    </section>
  );
}
