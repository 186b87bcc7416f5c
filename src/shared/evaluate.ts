// The Evaluate view's contract: which cases to run (the built-in safety suite,
// or a case file the person picked in main's own file dialog, never a path a
// page names), and what it shows: per case, runs passed and the checks that
// failed on which runs; per run, whether its session can be opened.
import { z } from 'zod';
import { TurnEventSchema } from './sessions';

/** A session window runs at most this many runs of each case; `mino eval --repeat` goes to 100. */
export const MAX_DESKTOP_REPEAT = 20;

export const EvalRunInputSchema = z.strictObject({
  /** `suite`: the built-in safety suite. `file`: the case file last picked in this window (eval:pick). */
  source: z.enum(['suite', 'file'], { error: 'Run the built-in "suite" or the picked case "file".' }),
  /** Runs per case; default: each case's own `repeat`, else 1. */
  repeat: z
    .number({ error: 'The number of runs must be a number.' })
    .int('The number of runs must be a whole number.')
    .min(1, 'Run each case at least once.')
    .max(MAX_DESKTOP_REPEAT, `Run each case at most ${MAX_DESKTOP_REPEAT} times here; use mino eval --repeat for more.`)
    .optional(),
});
export type EvalRunInput = z.infer<typeof EvalRunInputSchema>;

/** The case file picked for this window, by its path and case names; `picked: false`: the person cancelled. */
export const EvalPickResultSchema = z.discriminatedUnion('picked', [
  z.object({ picked: z.literal(true), path: z.string(), cases: z.array(z.string()) }),
  z.object({ picked: z.literal(false) }),
]);
export type EvalPickResult = z.infer<typeof EvalPickResultSchema>;

export const EvalRunViewSchema = z.object({
  case: z.string(),
  /** 1-based. */
  run: z.number().int().positive(),
  passed: z.boolean(),
  /** "never_read .env: …", one per failed check. */
  failures: z.array(z.string()),
  /** The run saved a session log, which eval:session shows. */
  hasSession: z.boolean(),
});
export type EvalRunView = z.infer<typeof EvalRunViewSchema>;

export const EvalCaseViewSchema = z.object({
  case: z.string(),
  live: z.boolean(),
  runs: z.number().int().nonnegative(),
  passes: z.number().int().nonnegative(),
  passed: z.boolean(),
  failures: z.array(z.object({ check: z.string(), runs: z.array(z.number().int().positive()), why: z.string() })),
});
export type EvalCaseView = z.infer<typeof EvalCaseViewSchema>;

/** A finished evaluation: where its runs are kept, the verdict per case, and each run. */
export const EvalViewSchema = z.object({
  /** What ran: "the safety suite" or the case file's path. */
  source: z.string(),
  /** The folder holding every run (its home, project, session log and score). */
  dir: z.string(),
  /** The live cases asked this service and model; null when every case was scripted. */
  service: z.string().nullable(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  cases: z.array(EvalCaseViewSchema),
  runs: z.array(EvalRunViewSchema),
});
export type EvalView = z.infer<typeof EvalViewSchema>;

/** One run scored while the evaluation goes on, for the view's progress. */
export const EvalProgressSchema = z.object({ case: z.string(), run: z.number().int().positive(), passed: z.boolean() });
export type EvalProgress = z.infer<typeof EvalProgressSchema>;

export const EvalSessionInputSchema = z.strictObject({
  case: z.string({ error: 'Name the case whose run to open.' }).min(1, 'Name the case whose run to open.'),
  run: z.number({ error: 'The run must be a number.' }).int('The run must be a whole number.').positive('Runs count from 1.'),
});
export type EvalSessionInput = z.infer<typeof EvalSessionInputSchema>;

/** A run's session as it was saved, replayed (never re-run), read-only. */
export const EvalSessionViewSchema = z.object({
  case: z.string(),
  run: z.number().int().positive(),
  /** The run's session log on disk. */
  log: z.string(),
  events: z.array(TurnEventSchema),
  problems: z.array(z.string()),
});
export type EvalSessionView = z.infer<typeof EvalSessionViewSchema>;
