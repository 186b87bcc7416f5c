// Review of a file change in the approval dialog: the proposed change as
// hunks the person can reject one by one, and the answer that says which
// they rejected or the text they wrote instead. Main computes the hunks (core
// tools/review.ts) and, from the answer, the exact content to write; the
// dialog uses the same pure `applyReview` only to show what that will be.
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

/** `before` with every hunk applied except the rejected ones. */
export function applyReview(before: string, hunks: readonly ReviewHunk[], rejected: ReadonlySet<number>): string {
  let text = '';
  let at = 0;
  hunks.forEach((hunk, index) => {
    text += before.slice(at, hunk.from) + (rejected.has(index) ? before.slice(hunk.from, hunk.to) : hunk.insert);
    at = hunk.to;
  });
  return text + before.slice(at);
}

/** UTF-8 bytes of `text`, counted without any platform API (the renderer has no Buffer). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Lines as a person counts them: a final line without a newline still counts; an empty text has none. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** "39 bytes, 3 lines": the totals every write confirmation and result states (the Resulting file field). */
export function describeSize(text: string): string {
  const bytes = utf8Length(text);
  const lines = countLines(text);
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}, ${lines} ${lines === 1 ? 'line' : 'lines'}`;
}
