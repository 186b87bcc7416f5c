// The Evaluate view's state: the cases chosen (the suite or a picked file),
// the runs per case as typed, the evaluation running or its last result, and
// the run whose saved session is open. Every request goes to main; a failure
// becomes `error`, for the view to show.
import { useEffect, useState } from 'react';
import type { EvalPickResult, EvalSessionView, EvalView } from '../../../../shared/evaluate';
import { api, errorMessage } from '../../lib/api';

export type EvalSource = 'suite' | 'file';

export function useEvaluation() {
  const [source, setSource] = useState<EvalSource>('suite');
  const [picked, setPicked] = useState<Extract<EvalPickResult, { picked: true }> | null>(null);
  const [repeat, setRepeat] = useState('');
  const [running, setRunning] = useState(false);
  const [scored, setScored] = useState(0);
  const [view, setView] = useState<EvalView | null>(null);
  const [session, setSession] = useState<EvalSessionView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => api.onEvalProgress(() => setScored((n) => n + 1)), []);

  async function attempt(action: () => Promise<void>) {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const choose = () =>
    attempt(async () => {
      const result = await api.pickEvalCaseFile();
      if (!result.picked) return;
      setPicked(result);
      setSource('file');
    });

  const run = async () => {
    setSession(null);
    setScored(0);
    setRunning(true);
    // Blank: each case's own repeat. Main checks the number.
    const runs = repeat.trim() === '' ? undefined : Number(repeat);
    await attempt(async () => setView(await api.runEvaluation({ source, ...(runs === undefined ? {} : { repeat: runs }) })));
    setRunning(false);
  };

  // Main stops before the next run; `run` then ends with main's word on what was kept.
  const stop = () => attempt(async () => void (await api.stopEvaluation()));

  const openRun = (caseName: string, runNumber: number) => attempt(async () => setSession(await api.getEvalRunSession({ case: caseName, run: runNumber })));

  return { source, setSource, picked, repeat, setRepeat, running, scored, view, session, closeRun: () => setSession(null), error, choose, run, stop, openRun };
}
