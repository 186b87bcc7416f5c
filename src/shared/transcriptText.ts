// The book's textual forms that every front end shows the same way: the
// `Label: "value"` lines of a confirmation and the title of a tool record.
import type { Confirmation, PermissionMode, RuleRef } from './domain';
import { markHiddenCharacters } from './hiddenCharacters';

/**
 * One field line; the value is JSON-escaped so quotes, backslashes and
 * newlines cannot pass for another line, and its hidden characters are shown
 * as ⟨U+XXXX⟩ marks (JSON leaves bidi controls, DEL and C1 raw).
 */
export function confirmationFieldLine(label: string, value: string): string {
  return `${label}: ${JSON.stringify(markHiddenCharacters(value))}`;
}

export function formatConfirmationFields(confirmation: Pick<Confirmation, 'fields'>): string[] {
  return confirmation.fields.map((field) => confirmationFieldLine(field.label, field.value));
}

/** The title of an asked call's confirmation (or of a call's card); the name may be the model's own invention. */
export function askedTitle(toolName: string): string {
  return `[Tool: ${markHiddenCharacters(toolName)}]`;
}

/** The record shown when a mode, not a person, lets a call run. */
export function allowedRecordTitle(toolName: string, mode: PermissionMode): string {
  return `[Tool: ${markHiddenCharacters(toolName)}, allowed without confirmation in ${mode} mode]`;
}

/** `r3 "allow bash echo"`, as the transcript names rules; the text is the person's own, but shown marked like any field. */
export function rulesText(rules: readonly RuleRef[]): string {
  return rules.map((rule) => `${rule.id} ${JSON.stringify(markHiddenCharacters(rule.text))}`).join(', ');
}

/** The record shown when the person's rules, not a person or the mode, let a call run. */
export function ruleAllowedTitle(toolName: string, rules: readonly RuleRef[]): string {
  return `[Tool: ${markHiddenCharacters(toolName)}, allowed by rule${rules.length > 1 ? 's' : ''} ${rulesText(rules)}]`;
}

/** Said under an ask that the person's rules (not the mode) made: which ones. */
export function askedByRulesLine(rules: readonly RuleRef[]): string {
  return `Asked because of your rule${rules.length > 1 ? 's' : ''} ${rulesText(rules)}`;
}

/** "850 tokens", "2.1k tokens", "12k tokens": what a count costs, at a glance. */
export function tokensText(tokens: number): string {
  if (tokens < 1000) return `${tokens} ${tokens === 1 ? 'token' : 'tokens'}`;
  const thousands = (tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0).replace(/\.0$/, '');
  return `${thousands}k tokens`;
}

/** "Project instructions: AGENTS.md, 2.1k tokens", or why the file was not read. */
export function projectInstructionsLine(view: { file: string; tokens: number; truncated?: boolean; notRead?: string }): string {
  if (view.notRead !== undefined) return `Project instructions: ${view.file}, not read: ${markHiddenCharacters(view.notRead)}`;
  return `Project instructions: ${view.file}, ${tokensText(view.tokens)}${view.truncated ? ' (only its first 32 KiB)' : ''}`;
}

/** The model's plan as a checklist: "[x] done", "[>] in progress", "[ ] pending", one step a line. */
export function planChecklist(plan: { steps: ReadonlyArray<{ step: string; status: string }>; explanation?: string }): string[] {
  const marks: Readonly<Record<string, string>> = { completed: '[x]', in_progress: '[>]', pending: '[ ]' };
  const lines = plan.steps.map((step) => `${marks[step.status] ?? '[ ]'} ${markHiddenCharacters(step.step)}`);
  return plan.explanation ? [markHiddenCharacters(plan.explanation), ...lines] : lines;
}
