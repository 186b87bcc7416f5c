// Skills as a list: name, origin, description, and what a skill's author
// lists as allowed-tools, shown as information only. Skills not offered are
// listed with why.
import type { SkillInfo, SkillNotOffered, SkillOrigin } from '../../../../shared/skills';

export const ORIGIN_TEXT: Record<SkillOrigin, string> = { project: 'Project', personal: 'Yours (~/.mino)' };

export function SkillList({ skills, label }: { skills: readonly SkillInfo[]; label: string }) {
  return (
    <ul className="session-list" aria-label={label}>
      {skills.map((skill) => (
        <li key={skill.name} className="session-item" data-testid="skill" aria-label={`Skill ${skill.name}`}>
          <div className="session-summary">
            <span className="recent-name">{skill.name}</span>
            <span className="recent-path">{skill.description}</span>
            <span className="muted small">
              <span className="session-id">{skill.location}</span>
            </span>
            {skill.allowedTools && (
              <span className="muted small" data-testid="skill-allowed-tools">
                Lists allowed-tools {skill.allowedTools.join(' ')}: information only; a skill grants no permission.
              </span>
            )}
          </div>
          <span className="badge badge-neutral" data-testid="skill-origin">
            {ORIGIN_TEXT[skill.origin]}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function NotOfferedList({ entries }: { entries: readonly SkillNotOffered[] }) {
  return (
    <ul className="error small" aria-label="Skills not offered">
      {entries.map((entry) => (
        <li key={`${entry.origin}:${entry.location}`} data-testid="skill-not-offered">
          {entry.folder} ({ORIGIN_TEXT[entry.origin]}, {entry.location}) is not offered: {entry.reason}.
        </li>
      ))}
    </ul>
  );
}
