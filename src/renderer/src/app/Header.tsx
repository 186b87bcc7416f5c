// Always on screen, in one row at any width: which project, which session and
// which permission mode this window acts under, which model answers, and how
// much of the context the session uses, so a person never has to guess before approving.
import type { PermissionMode } from '../../../shared/domain';
import type { Project } from '../../../shared/ipc';
import type { ContextUse } from '../../../shared/sessions';
import { tokensText } from '../features/transcript/tokensText';
import { ModeControl } from '../features/modes/ModeControl';
import { ModelPicker } from './ModelPicker';
import { ProjectPath } from './ProjectPath';

interface HeaderProps {
  project: Project | null;
  /** The session's title (the person's, or its first question shortened); null without a session. */
  sessionTitle: string | null;
  /** The window's session, for the model picker; null without one. */
  sessionId?: string | null;
  mode: PermissionMode | null;
  /** Tokens the session's context uses of the window; null before it is known. */
  context: ContextUse | null;
  onModeChanged(mode: PermissionMode): void;
  onModeMessage(message: string, isError: boolean): void;
  onOpenSettings(): void;
}

export function Header({ project, sessionTitle, sessionId = null, mode, context, onModeChanged, onModeMessage, onOpenSettings }: HeaderProps) {
  const share = context && context.window > 0 ? Math.min(1, context.used / context.window) : null;
  return (
    <header className="header">
      <span className="brand">Mino</span>
      <dl className="status" aria-label="Window status">
        <div className="status-session">
          <dt className="visually-hidden">Session</dt>
          <dd data-testid="header-title" title={sessionTitle ?? undefined}>
            {sessionTitle ?? 'No session'}
          </dd>
        </div>
        <div className="status-project">
          <dt>Project</dt>
          <dd title={project?.path} data-testid="header-project">
            {project ? <ProjectPath path={project.path} /> : 'None'}
          </dd>
        </div>
        {context && (
          <div className="status-context">
            <dt>Context</dt>
            <dd data-testid="context-meter" title={`${context.used.toLocaleString('en-US')} of ${context.window.toLocaleString('en-US')} tokens in use`}>
              {share !== null && (
                <span className="meter" aria-hidden="true">
                  <span className="meter-fill" style={{ width: `${Math.round(share * 100)}%` }} />
                </span>
              )}
              {tokensText(context.used)} / {tokensText(context.window)}
            </dd>
          </div>
        )}
      </dl>
      {sessionId && <ModelPicker sessionId={sessionId} onMessage={onModeMessage} />}
      <div className="mode-control" data-mode={mode ?? undefined}>
        <ModeControl mode={mode} onChanged={onModeChanged} onMessage={onModeMessage} />
      </div>
      <button type="button" className="ghost" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
