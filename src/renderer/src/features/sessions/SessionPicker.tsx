// After a project opens: start a new session or resume a saved one.
import { useEffect, useId, useRef, useState } from 'react';
import type { Project } from '../../../../shared/ipc';
import type { SessionView } from '../../../../shared/sessions';
import { api, errorMessage } from '../../lib/api';
import { applyOpenResult, type OpenRequest } from './openSessionResult';
import { SessionList } from './SessionList';
import { useProjectSessions } from './useProjectSessions';
import { ErrorMessage } from '../../components/ErrorMessage';

interface SessionPickerProps {
  project: Project;
  onAdopt(view: SessionView): void;
}

export function SessionPicker({ project, onAdopt }: SessionPickerProps) {
  const ids = useId();
  const { sessions, error: listError } = useProjectSessions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const start = useRef<HTMLButtonElement>(null);
  // A project just opened: the keyboard is on its next step.
  useEffect(() => start.current?.focus(), []);

  async function run(open: () => ReturnType<typeof api.newSession>, request: OpenRequest) {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      setMessage(applyOpenResult(await open(), onAdopt, request));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="start" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`}>Sessions in {project.name}</h1>
      <p className="muted">Start a new conversation, or resume a saved one where it left off.</p>
      <button type="button" className="primary" ref={start} onClick={() => run(api.newSession, 'new')} disabled={busy}>
        New session
      </button>
      <ErrorMessage text={error} />
      {message && (
        <p className="info" role="status">
          {message}
        </p>
      )}
      <h2 id={`${ids}-saved`}>Saved sessions</h2>
      <ErrorMessage text={listError} />
      <SessionList sessions={sessions} busy={busy} onResume={(id) => run(() => api.openSession({ id }), 'existing')} labelledBy={`${ids}-saved`} />
    </section>
  );
}
