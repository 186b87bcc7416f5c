import { useState } from 'react';
import type { OpenProjectResult, Project } from '../../../../shared/ipc';
import { api, errorMessage } from '../../lib/api';
import { useRecentProjects } from './useRecentProjects';
import { ErrorMessage } from '../../components/ErrorMessage';

interface StartScreenProps {
  onOpened(project: Project): void;
}

export function StartScreen({ onOpened }: StartScreenProps) {
  const { projects, error: listError } = useRecentProjects();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(open: () => Promise<OpenProjectResult>) {
    setBusy(true);
    setError(null);
    try {
      const result = await open();
      if (result.opened) onOpened(result.project);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="start" aria-labelledby="start-title">
      <h1 id="start-title">Open a project</h1>
      <p className="muted">Mino works inside one project folder at a time. It reads and changes files there only with your approval.</p>
      <button type="button" className="primary" onClick={() => run(api.openProject)} disabled={busy}>
        Open project…
      </button>
      <ErrorMessage text={error} />
      <h2 id="recent-title">Recent projects</h2>
      <ErrorMessage text={listError} />
      {projects.length === 0 ? (
        <p className="muted">Projects you open appear here.</p>
      ) : (
        <ul className="recent" aria-labelledby="recent-title">
          {projects.map((project) => (
            <li key={project.path}>
              <button type="button" className="recent-item" onClick={() => run(() => api.openRecentProject({ path: project.path }))} disabled={busy}>
                <span className="recent-name">{project.name}</span>
                <span className="recent-path">{project.path}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
