// The one decision made before every live tool call: allow, ask or deny.
// Its only inputs are facts the program established itself (the tool's
// declared kind and the normalized target path) and the session's mode.
// There is deliberately no field here that could carry model text, file
// contents, tool output or a summary.
import type { Decision, PermissionMode, ToolKind } from '../../../shared/domain';
import type { ProjectPath } from '../fs/projectPath';
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

export interface Verdict {
  decision: Decision;
  /** For deny: the text returned to the model as the denied result. Otherwise why, for logs. */
  reason: string;
  /** An allow that must still be shown as an "allowed without confirmation" record. */
  shown: boolean;
}

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

export function decide(facts: DecisionFacts, mode: PermissionMode): Verdict {
  // Protected paths first, in every mode, before any file is opened.
  if (facts.path !== undefined) {
    const rule = protectedRuleFor(facts.path, targetTypeFor(facts));
    if (rule !== null) {
      return deny(`Blocked by policy: ${facts.path} is a protected path; file tools never read or write it. Do not retry or work around this with another tool.`);
    }
  } else if (facts.kind === 'file_write') {
    // A write without a checked target cannot be judged; refuse rather than guess.
    return deny('Blocked by policy: this file call has no target path the program could check. Do not retry or work around this with another tool.');
  }

  const outcome = MODE_ROWS[mode]?.outcomes[callClassOf(facts)];
  if (outcome === undefined) {
    return deny(`Blocked by policy: the program does not know how to judge this call in ${String(mode)} mode. Do not retry or work around this with another tool.`);
  }
  const what = KIND_NAMES[callClassOf(facts)];
  switch (outcome) {
    case 'allow':
      return { decision: 'allow', reason: `${capitalize(what)} run in every mode.`, shown: false };
    case 'allow, shown':
      return { decision: 'allow', reason: `${mode} mode runs ${what} without asking; the call is shown.`, shown: true };
    case 'ask':
      return { decision: 'ask', reason: `${mode} mode asks before ${what}.`, shown: false };
    case 'deny':
      return deny(`Blocked by policy: ${mode} mode does not run ${what}. Do not retry or work around this with another tool; the person can change the mode.`);
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

function deny(reason: string): Verdict {
  return { decision: 'deny', reason, shown: false };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
