// The session's changes for its transcript: fetched when the session opens,
// each time a turn ends, and on request (after an undo or redo). Only turns
// with files to review are kept; the Changes view reads the rest itself.
// `behind` says the changes in hand may not count the last turn begun: it
// began after they were fetched, and no fetch begun since it ended has come
// back yet (transcriptChanges.ts places the summaries by it).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionChangesView } from '../../../../shared/changes';
import { api } from '../../lib/api';

export function useSessionChanges(sessionId: string, busy: boolean): { changes: SessionChangesView | null; behind: boolean; refresh(): void } {
  const [changes, setChanges] = useState<SessionChangesView | null>(null);
  const [behind, setBehind] = useState(false);
  const latest = useRef(0);
  /** Turns begun while this window watched, and whether one runs now: what a fetch begun now counts. */
  const turns = useRef({ begun: 0, busy });
  useEffect(() => {
    turns.current.busy = busy;
    if (!busy) return;
    turns.current.begun += 1;
    setBehind(true);
  }, [busy]);
  const refresh = useCallback(() => {
    const run = ++latest.current;
    // Counts every turn begun so far only when none of them still runs.
    const countsAll = turns.current.busy ? null : turns.current.begun;
    api.listChanges().then(
      (value) => {
        if (run !== latest.current) return;
        // A turn that changed nothing reviewable (it only ran commands whose changes are unknown) gets no card.
        setChanges({ ...value, turns: value.turns.filter((turn) => turn.files.length > 0) });
        if (countsAll === turns.current.begun) setBehind(false);
      },
      // The summaries are a convenience; the Changes view reports errors when opened.
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!busy) refresh();
  }, [sessionId, busy, refresh]);
  return { changes, behind, refresh };
}
