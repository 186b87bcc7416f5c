// Undo and redo as the person takes them, wherever they take them (the Changes
// view, a turn's Changes card): the files are listed for confirmation first,
// and the outcome says which were restored and which were left as they are,
// with what changed in them since. The main process decides what is safe.
import { useState } from 'react';
import type { ReversalPlanView, ReversalReportView, ReversalTarget } from '../../../../shared/changes';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DiffView } from '../../components/DiffView';
import { api, errorMessage } from '../../lib/api';

export const VERB = { undo: 'Undo', redo: 'Redo' } as const;

export interface Reversal {
  /** Asked for, waiting for the person's yes. */
  pending: { target: ReversalTarget; plan: ReversalPlanView } | null;
  report: ReversalReportView | null;
  error: string | null;
  working: boolean;
  /** Lists what `target` would handle and asks the person. */
  ask(target: ReversalTarget): Promise<void>;
  run(target: ReversalTarget): Promise<void>;
  cancel(): void;
}

/** One undo or redo at a time; `onDone` runs after each attempt (the changes shown are read again). */
export function useReversal(onDone: () => void): Reversal {
  const [pending, setPending] = useState<Reversal['pending']>(null);
  const [report, setReport] = useState<ReversalReportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);

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
      onDone();
    }
  }

  return { pending, report, error, working, ask, run, cancel: () => setPending(null) };
}

/** The confirmation: what goes back, and the rule that nothing changed since is touched. */
export function ReversalConfirm({ reversal }: { reversal: Reversal }) {
  const { pending } = reversal;
  if (!pending) return null;
  const { target, plan } = pending;
  return (
    <ConfirmDialog
      title={`${VERB[target.action]} ${target.callId ? 'this change' : `turn ${plan.turn}`}?`}
      confirmLabel={VERB[target.action]}
      risky
      testId="reversal-confirm"
      onCancel={reversal.cancel}
      onConfirm={() => void reversal.run(target)}
    >
      <p>
        {target.action === 'undo' ? 'These files go back to how they were before the turn' : 'These files get back what the turn wrote'}, each only if it
        is still exactly what {target.action === 'undo' ? 'the turn left' : 'the undo left'}; a file changed since is left as it is.
      </p>
      <ul data-testid="reversal-files">
        {plan.paths.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}

/** What an undo or redo did: how many files were restored, and each one left alone with why and its diff. */
export function ReversalReport({ report }: { report: ReversalReportView }) {
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
