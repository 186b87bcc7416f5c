// Review of a file change in the approval dialog: the proposed change as
// hunks the person can reject one by one, and the answer that says which
// they rejected or the text they wrote instead. Main computes the hunks (core
// tools/review.ts) and, from the answer, the exact content to write; the
// dialog uses the same pure `applyReview` (reviewEdits.ts) only to show what
// that will be.
import { z } from 'zod';

/**
 * One hunk of a proposed change, as the diff shows it (the same order): the
 * text of `before` from `from` to `to` (UTF-16 offsets, whole lines) is
 * replaced by `insert`. Hunks never overlap and come in file order.
 */
export const ReviewHunkSchema = z.object({
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  insert: z.string(),
});
export type ReviewHunk = z.infer<typeof ReviewHunkSchema>;

/** What an ask offers for review: the file as inspected (empty for a file to create) and the model's proposal, by hunk. */
export const ReviewSubjectSchema = z.object({
  path: z.string(),
  before: z.string(),
  proposed: z.string(),
  hunks: z.array(ReviewHunkSchema),
});
export type ReviewSubject = z.infer<typeof ReviewSubjectSchema>;

/** The most characters the person's own text may have; main also counts its UTF-8 bytes against the write limit. */
export const MAX_REVIEW_TEXT_CHARS = 256 * 1024;

/**
 * The person's review, sent with an approval: the hunks they rejected (by
 * index) and, when they rewrote the text, that text. Main checks the path is
 * the ask's, computes what to write and its SHA-256 itself.
 */
export const ReviewAnswerSchema = z.strictObject({
  path: z.string({ error: 'The reviewed path must be text.' }).max(4096, 'The reviewed path is too long.'),
  rejectedHunks: z
    .array(z.number({ error: 'A rejected hunk is a number.' }).int('A rejected hunk is a whole number.').nonnegative('A rejected hunk is 0 or more.'))
    .max(10_000, 'Too many rejected hunks.'),
  content: z
    .string({ error: 'The reviewed text must be text.' })
    .max(MAX_REVIEW_TEXT_CHARS, `The reviewed text is longer than ${MAX_REVIEW_TEXT_CHARS} characters; file tools write at most 256 KiB.`)
    .optional(),
});
export type ReviewAnswer = z.infer<typeof ReviewAnswerSchema>;
