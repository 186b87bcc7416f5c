// Saved sessions of the project: title, id, last update, and a Resume button each.
import type { SessionSummary } from '../../../../shared/domain';
import { sessionLabel } from '../../../../shared/sessionTitle';

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

interface SessionListProps {
  sessions: SessionSummary[] | null;
  /** Left out of the list (the session this window shows). */
  currentId?: string | null;
  busy: boolean;
  onResume(id: string): void;
  labelledBy: string;
}

export function SessionList({ sessions, currentId, busy, onResume, labelledBy }: SessionListProps) {
  if (sessions === null) return <p className="muted">Loading sessions…</p>;
  const shown = sessions.filter((session) => session.id !== currentId);
  if (shown.length === 0) return <p className="muted">No other saved sessions in this project.</p>;
  return (
    <ul className="session-list" aria-labelledby={labelledBy}>
      {shown.map((session) => (
        <li key={session.id} className="session-item" data-testid="session-item" data-session-id={session.id}>
          <div className="session-summary">
            <span className="session-prompt" title={session.title ?? session.firstPrompt}>
              {sessionLabel(session.firstPrompt, session.title)}
            </span>
            <span className="muted small">
              <span className="session-id">{session.id}</span> · updated {when(session.updatedAt)}
            </span>
          </div>
          <button type="button" onClick={() => onResume(session.id)} disabled={busy} aria-label={`Resume session ${session.id}: ${sessionLabel(session.firstPrompt, session.title)}`}>
            Resume
          </button>
        </li>
      ))}
    </ul>
  );
}
