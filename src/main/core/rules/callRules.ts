// What one live call takes from the person's rules and gives to the ledger:
// the rules read for its project (per call), what they judge beside the
// decision's facts (a command's parts), and the ledger entries written before
// the call runs and after the person answers.
import type { Decision } from '../../../shared/domain';
import { commandParts } from './commandParts';
import { activeRulesFor, lastReadRulesFor } from './activeRules';
import { toolsOff, type RuleInputs } from './judge';
import { appendLedger, ledgerTarget, type LedgerBy, type LedgerEntry } from './ledger';
import type { ActiveRule, RuleRef } from './rules';
import { RulesFileError } from './rulesFile';
import { alwaysAllowRule } from './ruleService';

export type CallRules = { ok: true; rules: readonly ActiveRule[]; off: ReadonlySet<string> } | { ok: false; reason: string };

interface Where {
  readonly homeDir: string;
  readonly projectDir: string;
}

/**
 * The rules for a call in `where`. A rules file that cannot be read refuses
 * every call: a deny or protect rule the person wrote must not silently lapse.
 */
export async function callRules(where: Where): Promise<CallRules> {
  try {
    const { rules } = await activeRulesFor(where.homeDir, where.projectDir);
    return { ok: true, rules, off: toolsOff(rules) };
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    return {
      ok: false,
      reason: `Blocked: the person's rules cannot be read, so no call runs until they can. ${error.message} Tell the person; do not retry or work around this.`,
    };
  }
}

/** The rules as last read, for what only numbers the asks of a response. */
export function lastReadCallRules(where: Where): readonly ActiveRule[] {
  return lastReadRulesFor(where.homeDir, where.projectDir);
}

/** A bash call's command, from its validated arguments. */
export function commandOf(kind: string, args: unknown): string | undefined {
  if (kind !== 'bash' || typeof args !== 'object' || args === null) return undefined;
  const command = (args as { command?: unknown }).command;
  return typeof command === 'string' ? command : undefined;
}

/** What decide() judges with the rules: the tool's name, and a command as the shell parser reads it. */
export async function ruleInputsFor(
  rules: readonly ActiveRule[],
  call: { toolName: string; kind: string; args: unknown; mcp?: RuleInputs['mcp'] },
  projectDir: string,
): Promise<RuleInputs> {
  const command = commandOf(call.kind, call.args);
  // Only a command some rule could judge is parsed: with no rules, nothing changes for anyone.
  const parsed = command !== undefined && rules.some((rule) => rule.body.kind === 'bash') ? { command: await commandParts(command, { projectRoot: projectDir }) } : {};
  return { rules, toolName: call.toolName, ...(call.mcp ? { mcp: call.mcp } : {}), ...parsed };
}

/**
 * The rules without a command's reading, for what cannot wait for the parser
 * (numbering a response's asks): a command is then judged as unreadable,
 * which can only predict an ask where the call may end up allowed or denied.
 */
export function ruleInputsNow(rules: readonly ActiveRule[], toolName: string, mcp?: RuleInputs['mcp']): RuleInputs {
  return { rules, toolName, ...(mcp ? { mcp } : {}) };
}

/**
 * The rule "Always allow" offers for a call that asks, or undefined. Never
 * for a call the person's own rule made ask: an allow rule could not change
 * that, as ask rules come before allow rules.
 */
export async function offeredRule(
  call: { kind: string; args: unknown; outside: boolean; mcp?: { server: string; tool: string }; askedByRules: boolean },
  projectDir: string,
): Promise<string | undefined> {
  if (call.askedByRules) return undefined;
  const command = commandOf(call.kind, call.args);
  const reading = command === undefined ? undefined : await commandParts(command, { projectRoot: projectDir });
  return alwaysAllowRule({ kind: call.kind, outside: call.outside, ...(reading ? { command: reading } : {}), ...(call.mcp ? { mcp: call.mcp } : {}) }) ?? undefined;
}

/** The ledger of one call: its decision, then (for an ask) the person's answer. */
export interface CallLedger {
  /** A verdict of decide() and what settled it (policy/decide.ts: DecidedBy). */
  decided(decided: { verdict: { decision: Decision }; by: LedgerBy }): Promise<void>;
  /** The person's answer, and the rule they saved with it ("Always allow"). */
  answered(answer: { approved: boolean; savedRule?: RuleRef }): Promise<void>;
}

export function callLedger(where: Where, call: { session: string; callId: string; tool: string; target: string | undefined }): CallLedger {
  const base = () => ({
    at: new Date().toISOString(),
    session: call.session,
    call_id: call.callId,
    tool: call.tool,
    ...(call.target !== undefined ? { target: ledgerTarget(call.target) } : {}),
  });
  const append = (entry: LedgerEntry) => appendLedger(where.homeDir, where.projectDir, entry);
  return {
    decided: ({ verdict, by }) => append({ ...base(), decision: verdict.decision, by }),
    answered: ({ approved, savedRule }) =>
      append({ ...base(), decision: approved ? 'allow' : 'deny', by: { kind: 'person', approved, ...(savedRule ? { savedRule } : {}) }, answer: true }),
  };
}

/**
 * The ledger entries of calls whose result was lost (Mino stopped while they
 * ran) once the person acknowledged them: the decision is `unknown`, settled
 * by the person's acknowledgement.
 */
export async function ledgerAcknowledged(where: Where, session: string, calls: ReadonlyArray<{ call_id: string; name: string; target: string | undefined }>): Promise<void> {
  for (const call of calls) {
    await appendLedger(where.homeDir, where.projectDir, {
      at: new Date().toISOString(),
      session,
      call_id: call.call_id,
      tool: call.name,
      ...(call.target !== undefined ? { target: ledgerTarget(call.target) } : {}),
      decision: 'unknown',
      by: { kind: 'acknowledged' },
    });
  }
}

/**
 * The tools the person switched off in `where`, for assembling what a turn
 * offers the model. Empty while the rules cannot be read: every call is
 * refused then anyway (callRules), with the reason.
 */
export async function toolsOffIn(where: Where): Promise<ReadonlySet<string>> {
  const rules = await callRules(where);
  return rules.ok ? rules.off : new Set();
}
