// What a session's turns changed, and the outcome of an undo or redo, as a
// window shows them. Display-only; undo itself is decided by the main process.
import { z } from 'zod';

export const FileChangeSummarySchema = z.object({
  path: z.string(),
  /** The file tools' words, and those of captured bash commands (changed, deleted, ...). */
  action: z.enum(['created', 'edited', 'overwritten', 'created directory', 'changed', 'deleted', 'deleted directory', 'permissions changed']),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  diff: z.string().nullable(),
  state: z.enum(['applied', 'undone']),
  /** The calls that changed this file in the turn (Undo this change takes one). */
  callIds: z.array(z.string()),
  notUndoable: z.string().optional(),
});
export type FileChangeSummaryView = z.infer<typeof FileChangeSummarySchema>;

export const TurnSummarySchema = z.object({
  turn: z.number().int().positive(),
  question: z.string(),
  files: z.array(FileChangeSummarySchema),
  untrackedCalls: z.number().int().nonnegative(),
  untrackedNote: z.string().nullable(),
});
export type TurnSummaryView = z.infer<typeof TurnSummarySchema>;

/** A session's changes, newest turn first, and how many turns it has had in all. */
export const SessionChangesSchema = z.object({ turns: z.array(TurnSummarySchema), turnCount: z.number().int().nonnegative() });
export type SessionChangesView = z.infer<typeof SessionChangesSchema>;

export const ReversalTargetSchema = z.strictObject({
  action: z.enum(['undo', 'redo'], { error: 'The action is undo or redo.' }),
  turn: z.number({ error: 'The turn is a number.' }).int().positive().optional(),
  callId: z.string().min(1).max(200).optional(),
});
export type ReversalTarget = z.infer<typeof ReversalTargetSchema>;

export const ReversalPlanSchema = z.object({ turn: z.number().int().positive(), paths: z.array(z.string()) });
export type ReversalPlanView = z.infer<typeof ReversalPlanSchema>;

const ReversedFileSchema = z.object({
  path: z.string(),
  outcome: z.enum(['restored', 'skipped']),
  reason: z.string().optional(),
  diff: z.string().optional(),
});

export const ReversalReportSchema = z.object({
  action: z.enum(['undo', 'redo']),
  turn: z.number().int().positive().nullable(),
  files: z.array(ReversedFileSchema),
  resumed: z.array(ReversedFileSchema),
});
export type ReversalReportView = z.infer<typeof ReversalReportSchema>;

/** Actions a line count means nothing for: a folder made or removed, or only permission bits changed. */
export const UNCOUNTED_ACTIONS: ReadonlySet<string> = new Set(['created directory', 'deleted directory', 'permissions changed']);
