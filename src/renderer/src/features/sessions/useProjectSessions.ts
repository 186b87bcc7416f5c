// The saved sessions of this window's project, newest first as the service lists them.
import { useCallback, useEffect, useState } from 'react';
import type { SessionSummary } from '../../../../shared/domain';
import { api, errorMessage } from '../../lib/api';

export function useProjectSessions(active = true): { sessions: SessionSummary[] | null; error: string | null; reload(): void } {
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!active) return;
    let live = true;
    setError(null);
    api.listSessions().then(
      (list) => live && setSessions(list),
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [active, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { sessions, error, reload };
}
