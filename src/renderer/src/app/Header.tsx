// Always on screen: which project, which session and which permission mode
// this window acts under, so a person never has to guess before approving.
import type { PermissionMode } from '../../../shared/domain';
import type { Project } from '../../../shared/ipc';
import { ModeControl } from '../features/modes/ModeControl';

interface HeaderProps {
  project: Project | null;
  sessionId: string | null;
  mode: PermissionMode | null;
  onModeChanged(mode: PermissionMode): void;
  onModeMessage(message: string, isError: boolean): void;
  onOpenSettings(): void;
}

export function Header({ project, sessionId, mode, onModeChanged, onModeMessage, onOpenSettings }: HeaderProps) {
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
