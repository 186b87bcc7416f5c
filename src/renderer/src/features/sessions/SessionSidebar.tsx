// The project's sessions beside the conversation: each by its title (the
// person's, or its first question shortened), when it was last updated and
// its id on a detail line; a search over titles; opening one here or in a new
// window (the service brings a window that already has it to the front); and
// renaming one, which the service keeps in the session's log.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { SessionSummary } from '../../../../shared/domain';
import type { SessionView } from '../../../../shared/sessions';
import { checkedSessionTitle, sessionLabel } from '../../../../shared/sessionTitle';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, errorMessage } from '../../lib/api';
import { applyOpenResult } from './openSessionResult';
import { ForkOrigin } from './ForkOrigin';
import { NewWindowIcon, RenameIcon } from './icons';
import { updatedText } from './sessionTime';
import { useProjectSessions } from './useProjectSessions';
import './SessionSidebar.css';

interface SessionSidebarProps {
  id: string;
  view: SessionView;
  onAdopt(view: SessionView): void;
  onMessage(message: string | null, isError?: boolean): void;
  /** Set when the sidebar lies over the conversation (a narrow window): closes it. */
  onClose?: () => void;
}

export function titleOf(session: SessionSummary): string {
  return sessionLabel(session.firstPrompt, session.title);
}

/** Sessions whose title holds every word of `query`, case-insensitively. */
export function matchingSessions(sessions: readonly SessionSummary[], query: string): SessionSummary[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((session) => {
    const title = titleOf(session).toLocaleLowerCase();
    return words.every((word) => title.includes(word));
  });
}

export function SessionSidebar({ id, view, onAdopt, onMessage, onClose }: SessionSidebarProps) {
  const ids = useId();
  const { sessions, error, reload } = useProjectSessions();
  const [query, setQuery] = useState('');
  const [working, setWorking] = useState(false);

  // A turn that starts or ends changes this session's title and time; another window may have renamed one.
  useEffect(reload, [reload, view.id, view.busy, view.title]);
  useEffect(() => {
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, [reload]);

  const shown = useMemo(() => (sessions ? matchingSessions(sessions, query) : null), [sessions, query]);

  async function open(sessionId: string, where: 'here' | 'new-window') {
    setWorking(true);
    onMessage(null);
    try {
      const text = applyOpenResult(await api.openSession({ id: sessionId, where }), onAdopt, 'existing');
      if (text) onMessage(where === 'new-window' ? `Session ${sessionId} is open in its own window.` : text);
      else onClose?.();
    } catch (failure) {
      onMessage(errorMessage(failure), true);
    } finally {
      setWorking(false);
    }
  }

  function keyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && onClose) {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <nav id={id} className={onClose ? 'session-sidebar overlay' : 'session-sidebar'} aria-labelledby={`${ids}-title`} data-testid="session-sidebar" onKeyDown={keyDown}>
      <div className="sidebar-head">
        <h2 id={`${ids}-title`}>Sessions</h2>
        {onClose && (
          <button type="button" className="ghost small" onClick={onClose} aria-label="Close the session list">
            ×
          </button>
        )}
      </div>
      <input type="search" className="sidebar-search" aria-label="Search sessions" placeholder="Search titles…" value={query} onChange={(event) => setQuery(event.target.value)} />
      <ErrorMessage text={error} />
      {shown === null ? (
        <p className="muted small">Loading sessions…</p>
      ) : shown.length === 0 ? (
        <p className="muted small">{query.trim() ? 'No session title matches.' : 'No saved sessions in this project.'}</p>
      ) : (
        <ul className="sidebar-list" aria-labelledby={`${ids}-title`}>
          {shown.map((session) => (
            <SidebarItem
              key={session.id}
              session={session}
              current={session.id === view.id}
              disabled={working}
              onOpen={(where) => void open(session.id, where)}
              onRenamed={() => reload()}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}

interface SidebarItemProps {
  session: SessionSummary;
  current: boolean;
  disabled: boolean;
  onOpen(where: 'here' | 'new-window'): void;
  onRenamed(): void;
}

function SidebarItem({ session, current, disabled, onOpen, onRenamed }: SidebarItemProps) {
  const title = titleOf(session);
  const [renaming, setRenaming] = useState(false);
  return (
    <li className={current ? 'sidebar-item current' : 'sidebar-item'} data-testid="sidebar-item" data-session-id={session.id}>
      {renaming ? (
        <RenameForm
          session={session}
          title={session.title ?? title}
          onDone={(saved) => {
            setRenaming(false);
            if (saved) onRenamed();
          }}
        />
      ) : (
        <>
          <button
            type="button"
            className="sidebar-entry"
            aria-current={current ? 'page' : undefined}
            disabled={disabled}
            onClick={() => !current && onOpen('here')}
            title={current ? `${title} (this window)` : `Open “${title}” in this window`}
          >
            <span className="sidebar-title" data-testid="sidebar-title">
              {title}
            </span>
            <span className="sidebar-detail muted small">
              {updatedText(session.updatedAt, new Date())} · <span className="session-id" data-testid={current ? 'current-session-id' : 'sidebar-session-id'}>{session.id}</span>
            </span>
            <ForkOrigin session={session} />
            {session.openElsewhere && (
              <span className="sidebar-elsewhere small" data-testid="open-elsewhere">
                Open in another window
              </span>
            )}
          </button>
          <span className="sidebar-actions">
            {!current && (
              <button type="button" className="ghost small" disabled={disabled} onClick={() => onOpen('new-window')} aria-label={`Open “${title}” in a new window`} title="Open in a new window">
                <NewWindowIcon />
              </button>
            )}
            <button type="button" className="ghost small" onClick={() => setRenaming(true)} aria-label={`Rename “${title}”`} title="Rename">
              <RenameIcon />
            </button>
          </span>
        </>
      )}
    </li>
  );
}

function RenameForm({ session, title, onDone }: { session: SessionSummary; title: string; onDone(saved: boolean): void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  async function save() {
    let checked: string;
    try {
      checked = checkedSessionTitle(text);
    } catch (failure) {
      setError(errorMessage(failure));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await api.renameSession({ id: session.id, title: checked });
      onDone(true);
    } catch (failure) {
      setError(errorMessage(failure));
      setSaving(false);
    }
  }

  return (
    <form
      className="sidebar-rename"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          // Escape leaves the form, not the sidebar.
          event.preventDefault();
          event.stopPropagation();
          onDone(false);
        }
      }}
    >
      <label htmlFor={inputId} className="visually-hidden">
        Session title
      </label>
      <input
        id={inputId}
        ref={input}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
      />
      {error && (
        <p className="error small" id={`${inputId}-error`} role="alert">
          {error}
        </p>
      )}
      <span className="sidebar-rename-actions">
        <button type="submit" className="primary small" disabled={saving}>
          Save
        </button>
        <button type="button" className="small" onClick={() => onDone(false)}>
          Cancel
        </button>
      </span>
    </form>
  );
}
