// The one decision made before every live tool call: allow, ask or deny.
// Its only inputs are facts the program established itself (the tool's
// declared kind and the normalized target path) and the session's mode.
// There is deliberately no field here that could carry model text, file
// contents, tool output or a summary; a command reaches the person's rules
// only as the words a shell parser read from it.
//
// The order: the protected floor (the built-in rules and the person's
// `protect` rules), then the person's deny, ask and allow rules
// (rules/judge.ts), then the mode table. A rule can turn an ask into an
// allow and anything into an ask or a deny; it never reaches a protected path.
import type { Decision, PermissionMode, RuleRef, ToolKind } from '../../../shared/domain';
import type { ProjectPath } from '../fs/projectPath';
import { judgeByRules, protectRuleFor, type RuleInputs, type RuleJudgement } from '../rules/judge';

export type { RuleInputs };
import { ruleLabel } from '../rules/rules';
import { KIND_NAMES, MODE_ROWS, type CallClass } from './modeTable';
import { protectedRuleFor, type TargetType } from './protectedPaths';


export interface DecisionFacts {
  readonly kind: ToolKind;
  /** The normalized project-relative target of a file tool. */
  readonly path?: ProjectPath;
  /** What `path` names, as the tool declares it; absent is judged as a possible directory. */
  readonly pathIs?: TargetType;
  /** A bash call that asked to run outside the sandbox, with the person's full rights. */
  readonly outsideSandbox?: true;
  /**
   * A bash call that will run with the person's full rights because no
   * sandbox is available (none on this machine, or turned off in Settings):
   * settled by the call's inspection, which plans how it runs.
   */
  readonly noSandbox?: true;
}

/** What settled a verdict, for the ledger and the transcript. */
export type DecidedBy =
  /** A protected path: a built-in rule (`.env`), or the person's `protect` rule (`rule` set). */
  | { kind: 'protected'; protected: string; rule?: RuleRef }
  /** The person's rules: the one that denied or asked, or every one an allow needed. */
  | { kind: 'rules'; rules: RuleRef[] }
  | { kind: 'mode'; mode: PermissionMode }
  /** The program's own refusal: a write with no checkable target, a mode it cannot judge. */
  | { kind: 'policy' };

export interface Verdict {
  decision: Decision;
  /** For deny: the text returned to the model as the denied result. Otherwise why, for logs. */
  reason: string;
  /** An allow that must still be shown as an "allowed without confirmation" record. */
  shown: boolean;
  /** The person's rules that decided it (the dialog and the transcript name them); absent when they did not. */
  rules?: RuleRef[];
}

/** A verdict and what settled it, for the ledger. */
type Judged = Verdict & { by: DecidedBy };

/** What a tool declares about itself; every tool (tools/types) has this shape. */
export interface DeclaredTool {
  readonly kind: ToolKind;
  target(args: unknown): { path?: ProjectPath; pathIs?: TargetType; outsideSandbox?: true };
}

/** What an inspection settled about how the call will run (see Inspection in tools/types). */
export interface SettledFacts {
  readonly noSandbox?: true;
}

/**
 * Builds the facts from the tool's own declarations only; the arguments reach
 * them through `target`, which normalizes. `settled`: what the call's
 * inspection found about how it will run, once it has been inspected.
 */
export function factsFor(tool: DeclaredTool, args: unknown, settled: SettledFacts = {}): DecisionFacts {
  const target = tool.target(args);
  const facts: { -readonly [K in keyof DecisionFacts]: DecisionFacts[K] } = { kind: tool.kind };
  if (target.path !== undefined) facts.path = target.path;
  if (target.pathIs !== undefined) facts.pathIs = target.pathIs;
  if (tool.kind === 'bash' && target.outsideSandbox === true) facts.outsideSandbox = true;
  if (tool.kind === 'bash' && settled.noSandbox === true) facts.noSandbox = true;
  return facts;
}

export function decide(facts: DecisionFacts, mode: PermissionMode, inputs?: RuleInputs): Verdict {
  return decideWithCause(facts, mode, inputs).verdict;
}

/** decide(), with what settled the verdict: a protected rule, the person's rules, the mode or the program. */
export function decideWithCause(facts: DecisionFacts, mode: PermissionMode, inputs?: RuleInputs): { verdict: Verdict; by: DecidedBy } {
  const { by, ...verdict } = judge(facts, mode, inputs);
  const rules = by.kind === 'rules' ? by.rules : by.kind === 'protected' && by.rule ? [by.rule] : null;
  return { verdict: rules ? { ...verdict, rules } : verdict, by };
}

function judge(facts: DecisionFacts, mode: PermissionMode, inputs: RuleInputs | undefined): Judged {
  // Protected paths first, in every mode, before any file is opened.
  if (facts.path !== undefined) {
    const rule = protectedRuleFor(facts.path, targetTypeFor(facts));
    if (rule !== null) {
      return deny(`Blocked by policy: ${facts.path} is a protected path; file tools never read or write it. Do not retry or work around this with another tool.`, { kind: 'protected', protected: rule });
    }
    const added = inputs ? protectRuleFor(inputs.rules, facts.path) : null;
    if (added !== null) {
      const ref = { id: added.id, text: added.text };
      return deny(
        `Blocked by policy: ${facts.path} is a protected path (the person's rule ${ruleLabel(ref)}); file tools never read or write it. Do not retry or work around this with another tool.`,
        { kind: 'protected', protected: added.text.replace(/^protect /u, ''), rule: ref },
      );
    }
  } else if (facts.kind === 'file_write') {
    // A write without a checked target cannot be judged; refuse rather than guess.
    return deny('Blocked by policy: this file call has no target path the program could check. Do not retry or work around this with another tool.', { kind: 'policy' });
  }

  const byMode = modeVerdict(facts, mode);
  const judged = inputs ? judgeByRules(inputs.rules, ruleFactsOf(facts, inputs)) : null;
  return judged === null ? byMode : withRules(judged, byMode);
}

/** A rule's judgement over the mode's: deny and ask always hold; an allow lifts an ask (or a mode's allow) and never a mode's deny. */
function withRules(judged: RuleJudgement, byMode: Judged): Judged {
  const by: DecidedBy = { kind: 'rules', rules: [...judged.rules] };
  switch (judged.decision) {
    case 'deny':
      return deny(`Blocked by the person's rule: ${judged.reason}. Do not retry or work around this with another tool or another spelling of the command.`, by);
    case 'ask':
      return { decision: 'ask', reason: `${judged.reason}.`, shown: false, by };
    case 'allow':
      // Shown, never silent: the transcript says which rule let it run.
      return byMode.decision === 'deny' ? byMode : { decision: 'allow', reason: `${judged.reason}.`, shown: true, by };
  }
}

function ruleFactsOf(facts: DecisionFacts, inputs: RuleInputs) {
  return {
    kind: facts.kind,
    toolName: inputs.toolName,
    ...(facts.path !== undefined ? { path: facts.path } : {}),
    outside: facts.outsideSandbox === true || facts.noSandbox === true,
    ...(inputs.command !== undefined ? { command: inputs.command } : {}),
    ...(inputs.mcp !== undefined ? { mcp: inputs.mcp } : {}),
  };
}

function modeVerdict(facts: DecisionFacts, mode: PermissionMode): Judged {
  const outcome = MODE_ROWS[mode]?.outcomes[callClassOf(facts)];
  if (outcome === undefined) {
    return deny(`Blocked by policy: the program does not know how to judge this call in ${String(mode)} mode. Do not retry or work around this with another tool.`, { kind: 'policy' });
  }
  const what = KIND_NAMES[callClassOf(facts)];
  const by: DecidedBy = { kind: 'mode', mode };
  switch (outcome) {
    case 'allow':
      return { decision: 'allow', reason: `${capitalize(what)} run in every mode.`, shown: false, by };
    case 'allow, shown':
      return { decision: 'allow', reason: `${mode} mode runs ${what} without asking; the call is shown.`, shown: true, by };
    case 'ask':
      return { decision: 'ask', reason: `${mode} mode asks before ${what}.`, shown: false, by };
    case 'deny': {
      // A mode made for something else (plan) says what to do instead of the call.
      const instead = MODE_ROWS[mode].refusal ?? 'Do not retry or work around this with another tool; the person can change the mode.';
      return deny(`Blocked by policy: ${mode} mode does not run ${what}. ${instead}`, by);
    }
  }
}

/** The table's column for a call: its kind, except a bash call that runs outside the sandbox (asked to, or for want of one). */
function callClassOf(facts: DecisionFacts): CallClass {
  if (facts.kind !== 'bash') return facts.kind;
  if (facts.outsideSandbox === true) return 'unsandboxed_bash';
  return facts.noSandbox === true ? 'bash_no_sandbox' : 'bash';
}

/**
 * Writes are judged as if the last segment could be a directory: a file named
 * `.git` redirects git to another directory's config and hooks, so creating
 * or changing one is refused. A plain file named `.git` may be read.
 */
function targetTypeFor(facts: DecisionFacts): TargetType {
  return facts.kind === 'restricted_read' && facts.pathIs === 'file' ? 'file' : 'directory';
}

function deny(reason: string, by: DecidedBy): Judged {
  return { decision: 'deny', reason, shown: false, by };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
