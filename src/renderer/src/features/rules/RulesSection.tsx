// Settings' "Rules" section: the person's rules that apply in this window's
// project (the global ones first, then the project's), each removable; a form
// to add one, with the forms a rule takes; and the Decisions panel, where
// every call's decision shows which rule (or mode, or answer) made it. Only
// the person changes rules: a change that lets more run without asking is
// confirmed in main's own dialog, and the outcome main reports is shown.
import { useId, useState, type FormEvent } from 'react';
import type { RuleAddInput, RuleView, RulesView } from '../../../../shared/rules';
import { ErrorMessage } from '../../components/ErrorMessage';
import { DecisionsDialog } from './DecisionsDialog';
import { RuleOutcomeLine } from './RuleOutcome';
import { useRules, type RulesState } from './useRules';
import './rules.css';

export function RulesSection({ open }: { open: boolean }) {
  const ids = useId();
  const rules = useRules(open);
  const [showingDecisions, setShowingDecisions] = useState(false);
  const { view } = rules;
  return (
    <section className="form" aria-labelledby={`${ids}-title`} aria-busy={rules.working} data-testid="rules-section">
      <h3 id={`${ids}-title`}>Rules</h3>
      <p className="muted small">
        Your rules decide before the permission mode: protected paths first, then deny, then ask, then allow, then the mode. They are
        kept in {view ? <span className="session-id">{view.file}</span> : 'your ~/.mino folder'}, never in the project, and only you
        change them: here, with Always allow when Mino asks, or with <span className="session-id">mino rules</span>.
      </p>
      {view?.problem && (
        <p className="banner" role="alert" data-testid="rules-problem">
          {view.problem}
        </p>
      )}
      <ErrorMessage text={rules.loadError} />
      {view && <RuleList view={view} rules={rules} labelledBy={`${ids}-title`} />}
      <AddRuleForm ids={ids} view={view} rules={rules} />
      <RuleOutcomeLine outcome={rules.outcome} working={rules.working} />
      <div className="actions">
        {view && view.project === null && <span className="muted small">Open a project to see its decisions.</span>}
        <button type="button" onClick={() => setShowingDecisions(true)} disabled={!view?.project}>
          Show decisions…
        </button>
      </div>
      {showingDecisions && (
        <DecisionsDialog
          onClose={() => {
            setShowingDecisions(false);
            // A rule revoked there is gone here too.
            rules.reload();
          }}
        />
      )}
    </section>
  );
}

function scopeText(scope: RuleView['scope']): string {
  return scope === 'global' ? 'All projects' : 'This project';
}

function RuleList({ view, rules, labelledBy }: { view: RulesView; rules: RulesState; labelledBy: string }) {
  if (view.rules.length === 0) {
    return (
      <p className="muted small" data-testid="rules-empty">
        No rules yet: every call follows the permission mode.
      </p>
    );
  }
  return (
    <ul className="session-list" aria-labelledby={labelledBy}>
      {view.rules.map((rule) => (
        <li key={rule.id} className="session-item" data-testid="rule" data-rule-id={rule.id}>
          <div className="session-summary">
            <code className="recent-name rule-text">{rule.text}</code>
            <span className="recent-path">
              {rule.id} · {scopeText(rule.scope)}
            </span>
          </div>
          <button type="button" className="small" disabled={rules.working} onClick={() => void rules.remove(rule.id)} aria-label={`Remove ${rule.id}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

function AddRuleForm({ ids, view, rules }: { ids: string; view: RulesView | null; rules: RulesState }) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<RuleAddInput['scope'] | null>(null);
  const hasProject = Boolean(view?.project);
  // This project when there is one, unless the person picked otherwise; all projects without one.
  const scope = hasProject ? (chosen ?? 'project') : 'global';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const outcome = await rules.add({ scope, text });
    if (outcome.status === 'changed') setText('');
  }

  return (
    <form onSubmit={submit} aria-label="Add a rule" className="form">
      <label htmlFor={`${ids}-rule`}>New rule</label>
      <input
        id={`${ids}-rule`}
        value={text}
        // The first form a rule takes, as main words it: the window never writes a kind of call itself (see modeWords.test.ts).
        placeholder={view?.grammar[0]}
        onChange={(event) => setText(event.target.value)}
        spellCheck={false}
        autoComplete="off"
        aria-describedby={`${ids}-forms`}
      />
      <fieldset className="rule-scope">
        <legend>For</legend>
        <label>
          <input type="radio" name={`${ids}-scope`} value="project" checked={scope === 'project'} disabled={!hasProject} onChange={() => setChosen('project')} />
          This project
        </label>
        <label>
          <input type="radio" name={`${ids}-scope`} value="global" checked={scope === 'global'} onChange={() => setChosen('global')} />
          All projects
        </label>
      </fieldset>
      <div id={`${ids}-forms`} className="muted small">
        A rule is one of:
        <ul className="rule-forms" aria-label="Forms of a rule">
          {(view?.grammar ?? []).map((line) => (
            <li key={line}>
              <code>{line}</code>
            </li>
          ))}
        </ul>
        A rule for commands matches their first words, as the shell reads them; a command with several parts runs without asking only if a rule allows every part.
      </div>
      <div className="actions">
        <button type="submit" disabled={rules.working || text.trim() === ''}>
          Add rule
        </button>
      </div>
    </form>
  );
}
