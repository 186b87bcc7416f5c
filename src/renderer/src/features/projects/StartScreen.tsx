import { useState } from 'react';
import type { OpenProjectResult, Project } from '../../../../shared/ipc';
import { api, errorMessage } from '../../lib/api';
import { useRecentProjects } from './useRecentProjects';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useFolderDrop } from './useFolderDrop';
import './StartScreen.css';

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

  const drop = useFolderDrop(
    (request) => void run(request),
    (message) => setError(message),
  );

  return (
    // The whole window below the header takes the drop, not only the centred column.
    <div className={`start-drop${drop.dragging ? ' drop-active' : ''}`} data-testid="drop-target" {...drop.handlers}>
      <section className="start" aria-labelledby="start-title">
        <h1 id="start-title">Open a project</h1>
        <p className="muted">Mino works inside one project folder at a time. It reads and changes files there only with your approval.</p>
        <button type="button" className="primary" onClick={() => run(api.openProject)} disabled={busy}>
          Open project…
        </button>
        <p className="muted small">Or drag a project folder onto this window.</p>
        {drop.dragging && (
          <p className="drop-hint" role="status">
            Drop the folder to open it as a project
          </p>
        )}
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
    </div>
  );
}
