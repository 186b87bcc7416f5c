// The session's changes for its transcript: fetched when the session opens,
// each time a turn ends, and on request (after an undo or redo). Only turns
// with files to review are kept; the Changes view reads the rest itself.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionChangesView } from '../../../../shared/changes';
import { api } from '../../lib/api';

export function useSessionChanges(sessionId: string, busy: boolean): { changes: SessionChangesView | null; refresh(): void } {
  const [changes, setChanges] = useState<SessionChangesView | null>(null);
  const latest = useRef(0);
  const refresh = useCallback(() => {
    const run = ++latest.current;
    api.listChanges().then(
      (value) => {
        // A turn that changed nothing reviewable (it only ran commands whose changes are unknown) gets no card.
        if (run === latest.current) setChanges({ ...value, turns: value.turns.filter((turn) => turn.files.length > 0) });
      },
      // The summaries are a convenience; the Changes view reports errors when opened.
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (!busy) refresh();
  }, [sessionId, busy, refresh]);
  return { changes, refresh };
}
