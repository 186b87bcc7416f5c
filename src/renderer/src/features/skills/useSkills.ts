// The skills a window shows, fetched when `key` changes (a new session, the
// Settings dialog opening) and on reload; a result for an older key is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SkillsView } from '../../../../shared/skills';
import { api, errorMessage } from '../../lib/api';

export function useSkills(key: string | null): { view: SkillsView | null; error: string | null; working: boolean; reload(): void } {
  const [view, setView] = useState<SkillsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const latest = useRef(0);

  const run = useCallback((request: () => Promise<SkillsView>) => {
    const current = ++latest.current;
    setWorking(true);
    setError(null);
    request().then(
      (value) => {
        if (current !== latest.current) return;
        setView(value);
        setWorking(false);
      },
      (failure: unknown) => {
        if (current !== latest.current) return;
        setError(errorMessage(failure));
        setWorking(false);
      },
    );
  }, []);

  useEffect(() => {
    if (key === null) return;
    run(api.getSkills);
    return () => {
      latest.current += 1;
    };
  }, [key, run]);

  return { view, error, working, reload: () => run(api.reloadSkills) };
}
