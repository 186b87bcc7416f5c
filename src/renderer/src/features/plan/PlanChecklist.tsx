// The model's plan (update_plan), pinned above the message box while its turn
// runs, and the project's instructions line, which opens what the model was told.
import type { Plan, ProjectInstructionsView } from '../../../../shared/sessions';
import { planChecklist, projectInstructionsLine } from '../../../../shared/transcriptText';
import './plan.css';

export function PlanChecklist({ plan }: { plan: Plan }) {
  const lines = planChecklist(plan);
  const steps = plan.explanation ? lines.slice(1) : lines;
  return (
    <section className="plan-checklist" aria-label="Steps the model is working through" data-testid="plan-checklist">
      {plan.explanation && <p className="muted small">{lines[0]}</p>}
      <ol className="plain-list">
        {steps.map((line, index) => (
          <li key={index} data-status={plan.steps[index]?.status}>
            {line}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ProjectInstructionsLine({ instructions }: { instructions: ProjectInstructionsView }) {
  const line = projectInstructionsLine(instructions);
  if (instructions.text === undefined) return <p className="muted small project-instructions" data-testid="project-instructions">{line}</p>;
  return (
    <details className="project-instructions small" data-testid="project-instructions">
      <summary>{line}</summary>
      <pre className="project-instructions-text">{instructions.text}</pre>
    </details>
  );
}
