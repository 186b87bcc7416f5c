// The person's rules and the decision ledger, for a window: the
// Settings' Rules section, and the Decisions panel. The renderer is
// untrusted, so a change that loosens (a new allow rule; removing a deny,
// ask, protect or off rule) never completes on a page's say-so: main asks the
// person itself, in a native dialog showing the exact rule, and saves only on
// that yes. A window reaches the global rules and its own project's, never
// another project's.
import { PERSON_RULE_GRAMMAR } from '../../core/agent/personRuleGrammar';
import { readLedger, ledgerFile } from '../../core/rules/ledger';
import { addPersonRule, removePersonRule, ruleChangeLoosens, rulesInScope } from '../../core/rules/ruleService';
import { parseRule, RULE_GRAMMAR } from '../../core/rules/ruleGrammar';
import type { Rule, RuleScope } from '../../core/rules/rules';
import { rulesFilePath, RulesFileError } from '../../core/rules/rulesFile';
import { ledgerByText, type LedgerEntry } from '../../../shared/ledger';
import { LEDGER_PAGE, type LedgerQuery, type LedgerView, type RuleAddInput, type RuleChangeResult, type RulesView } from '../../../shared/rules';
import type { ClientId, ClientRegistry } from '../clients';
import type { NativeConfirm, NativeQuestion } from '../ports';

export interface RulesDeps {
  homeDir: string;
  clients: ClientRegistry;
  /** Main's own yes/no dialog; without it no loosening can be confirmed. */
  confirm: NativeConfirm | undefined;
  /** The windows whose confirmation is open: one at a time per window. */
  asking: Set<ClientId>;
}

export const NO_PROJECT_FOR_RULES = 'Open a project first: a project rule belongs to the project this window shows. A rule for all projects needs none.';

function projectOf(deps: RulesDeps, client: ClientId): string | null {
  return deps.clients.state(client).project?.path ?? null;
}

/** `rules:list`: the global rules, then the window's project's. */
export async function listRules(deps: RulesDeps, client: ClientId): Promise<RulesView> {
  const project = projectOf(deps, client);
  const base = { file: rulesFilePath(deps.homeDir), project, grammar: [...RULE_GRAMMAR] };
  try {
    const rules = await rulesInScope(deps.homeDir, project === null ? { global: true } : { project });
    return { ...base, rules: rules.map(ruleView), problem: null };
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    return { ...base, rules: [], problem: `${error.message} Until then, every tool call is refused.` };
  }
}

function ruleView(rule: Rule): RulesView['rules'][number] {
  return { id: rule.id, text: rule.text, scope: 'global' in rule.scope ? 'global' : 'project', added: rule.added };
}

/** `rules:add`: a loosening waits for the person's yes in main; a bad rule is refused with what is wrong. */
export async function addRule(deps: RulesDeps, client: ClientId, input: RuleAddInput, now: Date): Promise<RuleChangeResult> {
  const project = projectOf(deps, client);
  if (input.scope === 'project' && project === null) return result(deps, client, 'error', NO_PROJECT_FOR_RULES);
  const scope: RuleScope = input.scope === 'global' ? { global: true } : { project: project as string };
  // Parsed before anything is asked: the dialog shows the rule as it will be saved, and a bad one asks nothing.
  const preview = parseRule(input.text, PERSON_RULE_GRAMMAR);
  if (!preview.ok) return result(deps, client, 'error', `${preview.reason} Nothing was saved.`);
  if (ruleChangeLoosens({ add: preview.text })) {
    const where = 'global' in scope ? 'in every project' : `in ${scope.project}`;
    const answer = await confirmOnce(deps, client, {
      title: 'Save a rule that allows?',
      message: `Always allow ${where}: ${preview.text}`,
      detail: `Calls this rule covers will run without asking you, in every permission mode. You can remove it later in Settings › Rules, or with "mino rules remove".`,
      confirmLabel: 'Save rule',
    });
    if (answer !== 'yes') return result(deps, client, answer === 'no' ? 'unchanged' : 'error', refusalText(answer, `the rule "${preview.text}"`));
  }
  const added = await addPersonRule(deps.homeDir, scope, input.text, PERSON_RULE_GRAMMAR, now);
  if (!added.ok) return result(deps, client, 'error', `${added.reason} Nothing was saved.`);
  return result(deps, client, 'changed', `Saved ${added.rule.id} "${added.rule.text}" ${'global' in scope ? 'for every project' : 'for this project'}.`);
}

/** `rules:remove`: only a global rule or one of this window's project; removing a deny, ask, protect or off rule waits for the person's yes. */
export async function removeRule(deps: RulesDeps, client: ClientId, id: string): Promise<RuleChangeResult> {
  const project = projectOf(deps, client);
  const inScope = await rulesInScope(deps.homeDir, project === null ? { global: true } : { project });
  const rule = inScope.find((candidate) => candidate.id === id);
  if (!rule) return result(deps, client, 'error', `There is no rule ${id} ${project === null ? 'for every project' : 'for this project or every project'}. Nothing was removed.`);
  if (ruleChangeLoosens({ remove: rule.text })) {
    const answer = await confirmOnce(deps, client, {
      title: 'Remove a rule that protects?',
      message: `Remove ${rule.id} "${rule.text}"${'global' in rule.scope ? ' (every project)' : ''}?`,
      detail: 'Calls this rule refuses or asks about will then follow your other rules and the permission mode, which may run them without asking.',
      confirmLabel: 'Remove rule',
    });
    if (answer !== 'yes') return result(deps, client, answer === 'no' ? 'unchanged' : 'error', refusalText(answer, `the removal of ${rule.id}`));
  }
  const removed = await removePersonRule(deps.homeDir, rule.id);
  if (removed === null) return result(deps, client, 'error', `Rule ${id} was already removed.`);
  return result(deps, client, 'changed', `Removed ${removed.id} "${removed.text}".`);
}

type Answer = 'yes' | 'no' | 'busy' | 'unavailable';

/** Asks in main's own dialog, one question per window at a time. */
export async function confirmOnce(deps: Pick<RulesDeps, 'confirm' | 'asking'>, client: ClientId, question: NativeQuestion): Promise<Answer> {
  if (deps.confirm === undefined) return 'unavailable';
  if (deps.asking.has(client)) return 'busy';
  deps.asking.add(client);
  try {
    return (await deps.confirm(client, question)) ? 'yes' : 'no';
  } finally {
    deps.asking.delete(client);
  }
}

export function refusalText(answer: Exclude<Answer, 'yes'>, what: string): string {
  switch (answer) {
    case 'no':
      return `You did not confirm ${what}, so nothing was saved.`;
    case 'busy':
      return 'Mino is already asking you something in its own dialog: answer it there first. Nothing was saved.';
    case 'unavailable':
      return `Mino cannot ask you here to confirm ${what}, so nothing was saved. Use "mino rules" in a terminal instead.`;
  }
}

async function result(deps: RulesDeps, client: ClientId, status: RuleChangeResult['status'], message: string): Promise<RuleChangeResult> {
  return { status, message, view: await listRules(deps, client) };
}

/** `ledger:list`: the window's project's decisions, newest first, those the query matches, at most LEDGER_PAGE. */
export async function listLedger(deps: Pick<RulesDeps, 'homeDir' | 'clients'>, client: ClientId, query: LedgerQuery): Promise<LedgerView> {
  const project = deps.clients.state(client).project?.path ?? null;
  if (project === null) throw new Error('Open a project first: the decisions shown are those of the project this window shows.');
  const { entries, problems } = await readLedger(deps.homeDir, project);
  const matched = entries.filter((entry) => matches(entry, query)).reverse();
  return {
    file: ledgerFile(deps.homeDir, project),
    entries: matched.slice(0, LEDGER_PAGE),
    total: entries.length,
    matched: matched.length,
    sessions: distinct(entries.map((entry) => entry.session)),
    tools: distinct(entries.map((entry) => entry.tool)).sort(),
    problems,
  };
}

function matches(entry: LedgerEntry, query: LedgerQuery): boolean {
  if (query.session !== undefined && entry.session !== query.session) return false;
  if (query.tool !== undefined && entry.tool !== query.tool) return false;
  if (query.decision !== undefined && entry.decision !== query.decision) return false;
  const needle = query.search?.trim().toLowerCase();
  if (!needle) return true;
  return [entry.target ?? '', entry.tool, entry.session, ledgerByText(entry.by)].some((text) => text.toLowerCase().includes(needle));
}

/** Each value once, newest first. */
function distinct(values: readonly string[]): string[] {
  return [...new Set([...values].reverse())];
}
