// The session's skills, folded under one line in the session window: what
// the model is offered (name, description, origin). Skills not offered are
// counted here and explained in Settings.
import { useId } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SkillList } from './SkillList';
import { useSkills } from './useSkills';

export function SessionSkills({ sessionId, busy }: { sessionId: string; busy: boolean }) {
  const ids = useId();
  const { view, error, working, reload } = useSkills(sessionId);
  if (!view && !error) return null;
  const count = view?.skills.length ?? 0;
  const notOffered = view?.notOffered.length ?? 0;
  return (
    <details className="skills-panel" data-testid="session-skills">
      <summary id={`${ids}-title`}>
        Skills ({count}){notOffered > 0 ? `, ${notOffered} not offered` : ''}
      </summary>
      <ErrorMessage text={error} />
      {view && view.skills.length === 0 && (
        <p className="muted small">
          No skills. Add one as <span className="session-id">.agents/skills/NAME/SKILL.md</span> in the project or{' '}
          <span className="session-id">~/.mino/skills/NAME/SKILL.md</span>, then reload.
        </p>
      )}
      {view && view.skills.length > 0 && <SkillList skills={view.skills} label="Skills of this session" />}
      {notOffered > 0 && <p className="muted small">Settings lists the skills that are not offered and why.</p>}
      <div className="actions">
        <button type="button" className="small" onClick={reload} disabled={working || busy}>
          {working ? 'Reloading…' : 'Reload skills'}
        </button>
        {busy && <span className="muted small">Reloading waits until the turn ends.</span>}
      </div>
    </details>
  );
}
