import { useEffect, useState } from 'react';
import type { Project } from '../../../shared/ipc';
import { StartScreen } from '../features/projects/StartScreen';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { api, errorMessage } from '../lib/api';
import { Composer } from './Composer';
import { Header } from './Header';
import { Transcript } from './Transcript';

export function App() {
  const [project, setProject] = useState<Project | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // After a reload the window keeps its project on the main side.
    api.currentProject().then(setProject, (failure: unknown) => setError(errorMessage(failure)));
  }, []);

  return (
    <div className="shell">
      <Header project={project} onOpenSettings={() => setSettingsOpen(true)} />
      <main className="main" id="main">
        {error && (
          <p className="error banner" role="alert">
            {error}
          </p>
        )}
        {project ? (
          <>
            <Transcript />
            <Composer />
          </>
        ) : (
          <StartScreen onOpened={setProject} />
        )}
      </main>
      <SettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </div>
  );
}
