// The person's rules and the decision ledger as windows see them.
// A rule is made or removed only by the person: in Settings' Rules section,
// with "Always allow" in an ask's dialog, or with `mino rules`. A change that
// loosens (a new allow rule; removing a deny, ask, protect or off rule) is
// confirmed by main in its own dialog, which no page can answer.
import { z } from 'zod';
import { LedgerEntrySchema } from './ledger';

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
