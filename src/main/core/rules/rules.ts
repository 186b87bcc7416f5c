// The rules a person writes: what each kind says, and a rule as it
// is kept in ~/.mino/rules.json. Only the person makes them (the CLI, the
// desktop's Settings); nothing the model, a tool result or a project file says
// reaches this file, which lives outside the project and the sandbox.
import type { RuleRef } from '../../../shared/domain';

export type { RuleRef };

/** What a rule does to the calls it covers. */
export type RuleEffect = 'allow' | 'ask' | 'deny';

/**
 * What one rule says, parsed from its text (ruleGrammar.ts). The text is what
 * is stored; this is derived from it on every read, so the two cannot drift.
 */
export type RuleBody =
  /** A command prefix, compared word by word with each part of a parsed command. `outside`: the "bash-outside" kind, for commands run outside the sandbox. */
  | { kind: 'bash'; effect: RuleEffect; outside: boolean; prefix: readonly string[] }
  /** One MCP server's tools, or one of them. */
  | { kind: 'mcp'; effect: RuleEffect; server: string; tool: string | null }
  /** File tools on project paths matching a glob: every access (`file`), or writes only (`file-write`). */
  | { kind: 'file'; effect: 'ask' | 'deny'; access: 'all' | 'write'; glob: string }
  /** A protected path the person adds: refused in every mode, like the built-in rules. */
  | { kind: 'protect'; glob: string }
  /** A tool not offered to the model at all. */
  | { kind: 'off'; tool: string };

/** A rule covers every project (global) or one project, named by its real path. */
export type RuleScope = { global: true } | { project: string };

/** A rule as it is kept and listed. */
export interface Rule {
  /** Short and stable ("r7"): never reused, so a ledger entry keeps naming the rule it named. */
  readonly id: string;
  /** The canonical text (`allow bash npm test`), parsed again on every read. */
  readonly text: string;
  readonly scope: RuleScope;
  /** When it was added, ISO 8601. */
  readonly added: string;
}

/** A rule whose text parsed: what the decision uses. */
export interface ActiveRule extends Rule {
  readonly body: RuleBody;
}

export function refOf(rule: Rule): RuleRef {
  return { id: rule.id, text: rule.text };
}

/** `r3 "allow bash echo"`, as messages name a rule. */
export function ruleLabel(rule: RuleRef): string {
  return `${rule.id} "${rule.text}"`;
}

export function scopeLabel(scope: RuleScope): string {
  return 'global' in scope ? 'global' : `project ${scope.project}`;
}
