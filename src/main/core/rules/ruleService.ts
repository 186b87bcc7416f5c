// What a front end does with rules, in one place: the CLI (`mino rules`) and,
// later, the desktop's Rules panel and "Always allow" in an ask's dialog.
// Only the person's own acts reach here; the model has no path to it.
import type { CommandReading } from './commandParts';
import { parseRule, type GrammarOptions } from './ruleGrammar';
import type { Rule, RuleScope } from './rules';
import { changeRulesFile, listedRules, readRulesFile, withoutRule, withRule } from './rulesFile';

/** Parses and saves a rule the person wrote; a bad rule is refused with what is wrong, and nothing is saved. */
export async function addPersonRule(homeDir: string, scope: RuleScope, input: string | readonly string[], grammar: GrammarOptions, now: Date): Promise<{ ok: true; rule: Rule } | { ok: false; reason: string }> {
  const parsed = parseRule(input, grammar);
  if (!parsed.ok) return parsed;
  return { ok: true, rule: await changeRulesFile(homeDir, (file) => withRule(file, scope, parsed.text, now.toISOString())) };
}

/** Removes rule `id` wherever it is; the removed rule, or null when there is none. */
export function removePersonRule(homeDir: string, id: string): Promise<Rule | null> {
  return changeRulesFile(homeDir, (file) => withoutRule(file, id));
}

/** The rules that apply in a project (global ones first), or only the global ones. */
export async function rulesInScope(homeDir: string, scope: RuleScope): Promise<Rule[]> {
  return listedRules(await readRulesFile(homeDir)).filter((rule) => 'global' in rule.scope || ('project' in scope && rule.scope.project === scope.project));
}

/**
 * The rule an "Always allow" next to an ask would save, shown exactly before
 * it is saved; null when no rule can be offered. A command is offered only
 * when it is one part, without expanded words in its prefix: its command
 * word, and a subcommand word when the second word is one (`npm test`,
 * `git status`), never its file arguments. An MCP call: its one tool.
 */
export function alwaysAllowRule(call: { kind: string; outside: boolean; command?: CommandReading; mcp?: { server: string; tool: string } }): string | null {
  if (call.kind === 'mcp' && call.mcp) return `allow mcp ${call.mcp.server}/${call.mcp.tool}`;
  if (call.kind !== 'bash' || !call.command?.ok || call.command.parts.length !== 1) return null;
  const [part] = call.command.parts;
  const plain = (index: number) => index < part.words.length && !part.expanded.includes(index) && /^[a-zA-Z0-9_.+@%,:/-]+$/u.test(part.words[index]);
  if (!plain(0) || part.words[0].includes('=')) return null;
  const prefix = plain(1) && /^[a-z][a-z0-9-]*$/u.test(part.words[1]) ? part.words.slice(0, 2) : part.words.slice(0, 1);
  return `allow ${call.outside ? 'bash-outside' : 'bash'} ${prefix.join(' ')}`;
}

// A stored rule was checked when it was added; judging a change, any tool name is taken as it is.
const JUDGING: GrammarOptions = { knownTools: [], isMcpToolName: () => true };

/**
 * Whether a change lets more run without the person: adding an allow rule,
 * or removing any other (a deny, ask, protect or off rule, or one whose text
 * no longer reads as a rule). Such a change waits for the person's yes in a
 * dialog no page can answer; a tightening applies at once.
 */
export function ruleChangeLoosens(change: { add: string } | { remove: string }): boolean {
  const text = 'add' in change ? change.add : change.remove;
  const parsed = parseRule(text, JUDGING);
  const allows = parsed.ok && 'effect' in parsed.body && parsed.body.effect === 'allow';
  return 'add' in change ? allows : !allows;
}
