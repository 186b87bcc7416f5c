// The decision ledger's entries (~/.mino/ledger/, a file per project): one
// per call Mino decided, with what decided it. Core writes and reads them, `mino audit`
// and the Decisions dialog show them. Kept apart from the rules' window
// contract (rules.ts), whose schemas the CLI would otherwise build at every
// start without using them.
import { z } from 'zod';
import { DecisionSchema, PermissionModeSchema, RuleRefSchema, type RuleRef } from './domain';

/** What settled a ledger entry: a protected path, the person's rules, the mode, the program, the person's answer, or the person acknowledging an unknown result. */
export const LedgerBySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('protected'), protected: z.string(), rule: RuleRefSchema.optional() }),
  z.object({ kind: z.literal('rules'), rules: z.array(RuleRefSchema) }),
  z.object({ kind: z.literal('mode'), mode: PermissionModeSchema }),
  z.object({ kind: z.literal('policy') }),
  z.object({ kind: z.literal('person'), approved: z.boolean(), savedRule: RuleRefSchema.optional() }),
  z.object({ kind: z.literal('acknowledged') }),
]);
export type LedgerBy = z.infer<typeof LedgerBySchema>;

export const LedgerEntrySchema = z.object({
  at: z.string(),
  session: z.string(),
  call_id: z.string(),
  tool: z.string(),
  /** The file path, the command, or nothing (an MCP call's tool name says it). */
  target: z.string().optional(),
  /** `unknown`: a call whose result was lost to a crash, acknowledged by the person. */
  decision: z.union([DecisionSchema, z.literal('unknown')]),
  by: LedgerBySchema,
  /** The person's answer to the call's earlier ask. */
  answer: z.literal(true).optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

function ruleLabel(rule: RuleRef): string {
  return `${rule.id} "${rule.text}"`;
}

/** What decided, in words: "by rule r3 \"allow bash echo\"", "approved by you", "by manual mode". */
export function ledgerByText(by: LedgerBy): string {
  switch (by.kind) {
    case 'protected':
      return by.rule ? `protected path (your rule ${ruleLabel(by.rule)})` : `protected path (${by.protected})`;
    case 'rules':
      return `by rule${by.rules.length > 1 ? 's' : ''} ${by.rules.map(ruleLabel).join(', ')}`;
    case 'mode':
      return `by ${by.mode} mode`;
    case 'policy':
      return 'by the program (the call could not be judged)';
    case 'person':
      if (!by.approved) return 'declined by you';
      return by.savedRule ? `approved by you, always: you saved rule ${ruleLabel(by.savedRule)}` : 'approved by you';
    case 'acknowledged':
      return 'result unknown (interrupted), acknowledged by you';
  }
}

/** The rules an entry names, for revoking them from the ledger. */
export function ledgerRules(by: LedgerBy): RuleRef[] {
  if (by.kind === 'rules') return by.rules;
  if (by.kind === 'protected' && by.rule) return [by.rule];
  if (by.kind === 'person' && by.savedRule) return [by.savedRule];
  return [];
}
