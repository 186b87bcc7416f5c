// The person's rules and the decision ledger as windows see them (issue #24).
// A rule is made or removed only by the person: in Settings' Rules section,
// with "Always allow" in an ask's dialog, or with `mino rules`. A change that
// loosens (a new allow rule; removing a deny, ask, protect or off rule) is
// confirmed by main in its own dialog, which no page can answer.
import { z } from 'zod';
import { DecisionSchema, PermissionModeSchema, RuleRefSchema, type RuleRef } from './domain';

// ---------------------------------------------------------------- rules

export const RuleViewSchema = z.object({
  /** Short and stable ("r7"); never reused. */
  id: z.string(),
  /** The canonical text: `allow bash npm test`. */
  text: z.string(),
  scope: z.enum(['global', 'project']),
  /** When it was added, ISO 8601. */
  added: z.string(),
});
export type RuleView = z.infer<typeof RuleViewSchema>;

export const RulesViewSchema = z.object({
  /** ~/.mino/rules.json. */
  file: z.string(),
  /** The window's project, whose rules are listed beside the global ones; null without one. */
  project: z.string().nullable(),
  /** Global rules first, then the project's. */
  rules: z.array(RuleViewSchema),
  /** The forms a rule takes, one per line, for the person writing one. */
  grammar: z.array(z.string()),
  /** Why the rules cannot be read (then every call is refused until they can); null when they can. */
  problem: z.string().nullable(),
});
export type RulesView = z.infer<typeof RulesViewSchema>;

export const RuleAddInputSchema = z.strictObject({
  scope: z.enum(['global', 'project'], { error: 'A rule is for this "project" or "global".' }),
  text: z
    .string({ error: 'The rule must be text, such as "allow bash npm test".' })
    .trim()
    .min(1, 'Write a rule first, such as "allow bash npm test".')
    .max(2000, 'The rule is longer than 2000 characters: a rule is a few words, such as "allow bash npm test".'),
});
export type RuleAddInput = z.infer<typeof RuleAddInputSchema>;

export const RuleRemoveInputSchema = z.strictObject({
  id: z.string({ error: 'The rule id must be text, such as r3.' }).regex(/^r[1-9][0-9]{0,8}$/u, 'A rule id is "r" and a number, such as r3.'),
});

/** `unchanged`: the person did not confirm a loosening; `error`: refused, `message` says why. Nothing was saved either way. */
export const RuleChangeResultSchema = z.object({
  status: z.enum(['changed', 'unchanged', 'error']),
  message: z.string(),
  view: RulesViewSchema,
});
export type RuleChangeResult = z.infer<typeof RuleChangeResultSchema>;

// ---------------------------------------------------------------- the ledger

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

export const LedgerQuerySchema = z.strictObject({
  session: z.string().max(64).optional(),
  tool: z.string().max(200).optional(),
  decision: z.enum(['allow', 'ask', 'deny', 'unknown']).optional(),
  /** Case-insensitive text anywhere in the target, tool, session or what decided. */
  search: z.string().max(500).optional(),
});
export type LedgerQuery = z.infer<typeof LedgerQuerySchema>;

/** The most entries one answer carries, newest first; `matched` says how many there were. */
export const LEDGER_PAGE = 500;

export const LedgerViewSchema = z.object({
  file: z.string(),
  entries: z.array(LedgerEntrySchema),
  /** Entries in the whole ledger, and those the query matched (entries holds at most LEDGER_PAGE of them). */
  total: z.number().int().nonnegative(),
  matched: z.number().int().nonnegative(),
  /** Sessions and tools found in the ledger, for the filters. */
  sessions: z.array(z.string()),
  tools: z.array(z.string()),
  /** Damaged lines, skipped. */
  problems: z.array(z.string()),
});
export type LedgerView = z.infer<typeof LedgerViewSchema>;

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
