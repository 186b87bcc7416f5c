import { useEffect, useState } from 'react';
import type { RecentProject } from '../../../../shared/ipc';
import { api, errorMessage } from '../../lib/api';

/** The recent-projects list, kept current by the service's events. */
export function useRecentProjects(): { projects: RecentProject[]; error: string | null } {
  const [projects, setProjects] = useState<RecentProject[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.listRecentProjects().then(
      (list) => live && setProjects(list),
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    const stop = api.onRecentProjectsChanged((list) => live && setProjects(list));
    return () => {
      live = false;
      stop();
    };
  }, []);
  return { projects, error };
}
