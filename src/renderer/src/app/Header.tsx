import type { Project } from '../../../shared/ipc';

interface HeaderProps {
  project: Project | null;
  onOpenSettings(): void;
}

export function Header({ project, onOpenSettings }: HeaderProps) {
  return (
    <header className="header">
      <span className="brand">Mino</span>
      <dl className="status" aria-label="Window status">
        <div>
          <dt>Project</dt>
          <dd title={project?.path} data-testid="header-project">
            {project ? project.name : 'None'}
          </dd>
        </div>
        <div>
          <dt>Session</dt>
          <dd data-testid="header-session">None</dd>
        </div>
        <div>
          <dt>Permission mode</dt>
          <dd data-testid="header-mode">Manual</dd>
        </div>
      </dl>
      <button type="button" className="ghost" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
