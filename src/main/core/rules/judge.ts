// What the person's rules say of one call, before the mode table: pure, from
// facts the program established (the tool's kind and name, the normalized
// target path, the parsed parts of a command). The order is the issue's:
// protect (with the built-in floor, in decide.ts), then deny, then ask, then
// allow; a call no rule covers is the mode's.
import type { Decision, ToolKind } from '../../../shared/domain';
import type { ProjectPath } from '../fs/projectPath';
import { partMatchesPrefix, type CommandPart, type CommandReading } from './commandParts';
import { globCovers } from './pathGlob';

export { globCovers };
import { refOf, ruleLabel, type ActiveRule, type RuleBody, type RuleRef } from './rules';

/** What the rules are judged on. */
export interface RuleFacts {
  readonly kind: ToolKind;
  /** The tool's name as the registry knows it. */
  readonly toolName: string;
  /** An MCP tool's server and tool, read from its name by the caller (mcp/toolName.ts). */
  readonly mcp?: { readonly server: string; readonly tool: string };
  readonly path?: ProjectPath;
  /** A bash call that runs outside the sandbox: asked to, or because none is available. */
  readonly outside?: boolean;
  /** A bash call's command, as the shell parser read it. */
  readonly command?: CommandReading;
}

/** The person's rules for a call, and what they judge beside decide()'s facts: the tool's name, a command's parts, an MCP tool's server. */
export interface RuleInputs {
  readonly rules: readonly ActiveRule[];
  readonly toolName: string;
  /** A bash call's command as the shell parser read it. */
  readonly command?: CommandReading;
  /** An MCP call's server and tool, as its name says them. */
  readonly mcp?: { readonly server: string; readonly tool: string };
}

export interface RuleJudgement {
  readonly decision: Decision;
  readonly rules: readonly RuleRef[];
  readonly reason: string;
}

/** The person's `protect` rule covering `path`, or null. */
export function protectRuleFor(rules: readonly ActiveRule[], path: ProjectPath): ActiveRule | null {
  return rules.find((rule) => rule.body.kind === 'protect' && globCovers(rule.body.glob, path)) ?? null;
}

/** The globs of the person's `protect` rules, for the tools that judge every entry of a walk by them. */
export function protectGlobsOf(rules: readonly ActiveRule[]): string[] {
  return rules.flatMap((rule) => (rule.body.kind === 'protect' ? [rule.body.glob] : []));
}

/** The tools the rules switch off: not offered to the model, and refused as unknown. */
export function toolsOff(rules: readonly ActiveRule[]): Set<string> {
  return new Set(rules.flatMap((rule) => (rule.body.kind === 'off' ? [rule.body.tool] : [])));
}

/** What the deny, ask and allow rules say of a call, or null when none decides it. */
export function judgeByRules(rules: readonly ActiveRule[], facts: RuleFacts): RuleJudgement | null {
  if (facts.kind === 'bash') return judgeCommand(rules.filter((rule) => bashRuleApplies(rule.body, facts.outside === true)), facts.command);
  const covering = rules.filter((rule) => covers(rule.body, facts));
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const rule = covering.find((candidate) => effectOf(candidate.body) === effect);
    if (rule) return { decision: effect, rules: [refOf(rule)], reason: `${verb(effect)} by your rule ${ruleLabel(rule)}` };
  }
  return null;
}

/**
 * A command: denied when a deny rule covers any part, asked when an ask rule
 * does, allowed only when allow rules cover every part. A command the parser
 * could not read cannot be allowed by a rule, and asks when any deny or ask
 * rule could have covered a part hidden in it.
 */
function judgeCommand(rules: readonly ActiveRule[], command: CommandReading | undefined): RuleJudgement | null {
  if (rules.length === 0) return null;
  if (command === undefined || !command.ok) {
    const strict = rules.filter((rule) => effectOf(rule.body) !== 'allow');
    if (strict.length === 0) return null;
    const why = command === undefined ? 'the command could not be read' : `the command could not be read (${command.reason})`;
    return { decision: 'ask', rules: strict.map(refOf), reason: `Asks: ${why}, so your rules ${strict.map(ruleLabel).join(', ')} cannot be checked against its parts` };
  }
  const parts = command.parts;
  for (const effect of ['deny', 'ask'] as const) {
    for (const part of parts) {
      const rule = ruleForPart(rules, part, effect);
      if (rule) return { decision: effect, rules: [refOf(rule)], reason: `${verb(effect)} by your rule ${ruleLabel(rule)}: it covers "${part.words.join(' ')}"` };
    }
  }
  if (parts.length === 0) return null;
  const allowing: ActiveRule[] = [];
  for (const part of parts) {
    const rule = ruleForPart(rules, part, 'allow');
    if (!rule) return null;
    if (!allowing.includes(rule)) allowing.push(rule);
  }
  return { decision: 'allow', rules: allowing.map(refOf), reason: `Allowed by your rule${allowing.length > 1 ? 's' : ''} ${allowing.map(ruleLabel).join(', ')}` };
}

function ruleForPart(rules: readonly ActiveRule[], part: CommandPart, effect: Decision): ActiveRule | undefined {
  return rules.find((rule) => rule.body.kind === 'bash' && rule.body.effect === effect && partMatchesPrefix(part, rule.body.prefix));
}

/**
 * Which bash rules judge a call. An allow rule is for one side only: `bash`
 * for commands in the sandbox, `bash-outside` for commands with the person's
 * full rights (asked for, or for want of a sandbox). A deny or ask rule for
 * `bash` holds on both sides, since stricter is always safe; one for
 * `bash-outside` holds outside only.
 */
function bashRuleApplies(body: RuleBody, outside: boolean): boolean {
  if (body.kind !== 'bash') return false;
  if (body.effect === 'allow') return body.outside === outside;
  return outside || !body.outside;
}

function covers(body: RuleBody, facts: RuleFacts): boolean {
  switch (body.kind) {
    case 'mcp': {
      const pair = facts.kind === 'mcp' ? facts.mcp : undefined;
      return pair !== undefined && pair.server === body.server && (body.tool === null || body.tool === pair.tool);
    }
    case 'file':
      if (facts.path === undefined || (facts.kind !== 'restricted_read' && facts.kind !== 'file_write')) return false;
      return (body.access === 'all' || facts.kind === 'file_write') && globCovers(body.glob, facts.path);
    default:
      return false;
  }
}

function effectOf(body: RuleBody): Decision | null {
  return body.kind === 'bash' || body.kind === 'mcp' || body.kind === 'file' ? body.effect : null;
}

function verb(effect: Decision): string {
  return effect === 'allow' ? 'Allowed' : effect === 'ask' ? 'Asks' : 'Refused';
}
