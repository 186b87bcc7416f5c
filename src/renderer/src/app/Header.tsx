// Always on screen: which project, which session and which permission mode
// this window acts under, so a person never has to guess before approving.
import type { PermissionMode } from '../../../shared/domain';
import type { Project } from '../../../shared/ipc';
import type { ContextUse } from '../../../shared/sessions';
import { tokensText } from '../features/transcript/tokensText';
import { ModeControl } from '../features/modes/ModeControl';

interface HeaderProps {
  project: Project | null;
  sessionId: string | null;
  mode: PermissionMode | null;
  /** Tokens the session's context uses of the window; null before it is known. */
  context: ContextUse | null;
  onModeChanged(mode: PermissionMode): void;
  onModeMessage(message: string, isError: boolean): void;
  onOpenSettings(): void;
}

export function Header({ project, sessionId, mode, context, onModeChanged, onModeMessage, onOpenSettings }: HeaderProps) {
  return (
    <header className="header">
      <span className="brand">Mino</span>
      <dl className="status" aria-label="Window status">
        <div className="status-project">
          <dt>Project</dt>
          <dd title={project?.path} data-testid="header-project">
            {/* The cell runs right to left so a long path is cut at its start; the path itself stays left to right. */}
            {project ? <bdi dir="ltr">{project.path}</bdi> : 'None'}
          </dd>
        </div>
        <div>
          <dt>Session</dt>
          <dd data-testid="header-session" className="session-id">
            {sessionId ?? 'None'}
          </dd>
        </div>
        {context && (
          <div>
            <dt>Context</dt>
            <dd data-testid="context-meter" title={`${context.used.toLocaleString('en-US')} of ${context.window.toLocaleString('en-US')} tokens in use`}>
              {tokensText(context.used)} / {tokensText(context.window)}
            </dd>
          </div>
        )}
      </dl>
      <div className="mode-control">
        <ModeControl mode={mode} onChanged={onModeChanged} onMessage={onModeMessage} />
      </div>
      <button type="button" className="ghost" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
