// Settings' "Skills" section: the skills offered to the model, with their
// origin and what they list as allowed-tools (information only), and the
// ones not offered, with why.
import { useId } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { NotOfferedList, SkillList } from './SkillList';
import { useSkills } from './useSkills';

export function SkillsSection({ open }: { open: boolean }) {
  const ids = useId();
  // Fetched each time the dialog opens, so the list is current.
  const { view, error, working, reload } = useSkills(open ? 'open' : null);
  return (
    <section className="form" aria-labelledby={`${ids}-title`} aria-busy={working} data-testid="skills-section">
      <h3 id={`${ids}-title`}>Skills</h3>
      <p className="muted small">
        Skills live in the project&apos;s <span className="session-id">.agents/skills/</span> and in your{' '}
        <span className="session-id">~/.mino/skills/</span>; a project skill wins over one of yours with the same name. The model
        sees each one&apos;s name and description and may load it. A skill is guidance only: it grants no permission.
      </p>
      {view && view.skills.length === 0 && <p className="muted small">No skills are offered.</p>}
      {view && view.skills.length > 0 && <SkillList skills={view.skills} label="Skills offered" />}
      {view && view.notOffered.length > 0 && <NotOfferedList entries={view.notOffered} />}
      <ErrorMessage text={error} />
      <div className="actions">
        <button type="button" onClick={reload} disabled={working}>
          {working ? 'Reloading…' : 'Reload skills'}
        </button>
      </div>
    </section>
  );
}
