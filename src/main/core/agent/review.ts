// The person's review of a file change, from their answer to what is
// written and what the model is told. Main decides the content itself: from
// the hunks it offered and the ones the person rejected, or the text they
// wrote instead, checked as the model's own content would be (same path,
// text only, within the write limit); the approval is bound to that content's
// SHA-256, and the model's result says exactly what was written and how it
// differs from its proposal, so it does not go on from its own version.
import { createHash } from 'node:crypto';
import { withThousands } from '../../../shared/formatNumber';
import type { ReviewAnswer, ReviewSubject } from '../../../shared/review';
import { applyReview } from '../../../shared/reviewEdits';
import { utf8Length } from '../../../shared/textSize';
import type { ToolResult } from '../../../shared/domain';
import { describeSize } from '../tools/preview';
import { unifiedDiff } from '../tools/unifiedDiff';
import { MAX_WRITE_BYTES } from '../tools/writeFile';

/** What the person approved instead of the proposal. */
export interface Revision {
  content: string;
  /** Computed here, from `content`; the write refuses anything else. */
  sha256: string;
  /** Indexes of the hunks the person rejected, in order. */
  rejectedHunks: number[];
  /** The person wrote text of their own (beyond rejecting hunks). */
  edited: boolean;
}

export type ReviewResolution = { ok: true; revision: Revision | null } | { ok: false; message: string };

/**
 * The content a review answer approves: null when it is the proposal itself
 * (an ordinary approval); a refusal, said to the person, when the answer does
 * not fit the ask.
 */
export function resolveReview(subject: ReviewSubject | undefined, answer: ReviewAnswer): ReviewResolution {
  if (!subject) return { ok: false, message: 'This request offers no review: approve it as shown, or deny it.' };
  if (answer.path !== subject.path) {
    return { ok: false, message: `Your review is of ${answer.path}, but this request changes ${subject.path}; nothing was approved. Approve or deny it again.` };
  }
  const rejected = [...new Set(answer.rejectedHunks)].sort((a, b) => a - b);
  const outside = rejected.find((index) => index >= subject.hunks.length);
  if (outside !== undefined) return { ok: false, message: `This change has ${subject.hunks.length} hunks, so hunk ${outside + 1} cannot be rejected; nothing was approved.` };
  const fromHunks = applyReview(subject.before, subject.hunks, new Set(rejected));
  const content = answer.content ?? fromHunks;
  if (content.includes('\0')) return { ok: false, message: 'Your text contains a NUL character; file tools write text only. Remove it, then approve again.' };
  const bytes = utf8Length(content);
  if (bytes > MAX_WRITE_BYTES) {
    return { ok: false, message: `Your text is ${withThousands(bytes)} bytes; file tools write at most 256 KiB. Shorten it, then approve again.` };
  }
  if (content === subject.proposed) return { ok: true, revision: null };
  const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
  return { ok: true, revision: { content, sha256, rejectedHunks: rejected, edited: content !== fromHunks } };
}

/** At most this much of the difference from the proposal is quoted to the model; past it, it is told to read the file. */
const NOTE_DIFF_MAX_CHARS = 8 * 1024;

/** What the model is told after the reviewed content was written, added to the tool's own result. */
export function revisionNote(subject: ReviewSubject, revision: Revision): string {
  const changes = [
    revision.rejectedHunks.length > 0 ? `rejected ${hunkList(revision.rejectedHunks)} (of ${subject.hunks.length} in your diff)` : '',
    revision.edited ? 'rewrote the text' : '',
  ].filter(Boolean);
  const diff = unifiedDiff(subject.path, subject.proposed, revision.content);
  const quoted =
    diff.length <= NOTE_DIFF_MAX_CHARS
      ? `How what was written differs from what you proposed (yours as the old side):\n${diff}`
      : `The difference from what you proposed is ${withThousands(diff.length)} characters long; read ${subject.path} before changing it again.`;
  return (
    `The user reviewed your change before approving it and ${changes.join(' and ')}. ` +
    `${subject.path} now holds their version (${describeSize(revision.content)}, SHA-256 ${revision.sha256}), not yours. ${quoted}\n` +
    'Base any further change on what was written, not on your proposal.'
  );
}

/** The result when the person rejected every hunk: nothing is left to write. */
export function everythingRejected(p: string): ToolResult {
  return { status: 'denied', output: `The user rejected every part of this change; ${p} was not modified. Do not retry it without a new user request.` };
}

/** The result when the file changed on disk while the person was looking at the change. */
export function changedWhileAsked(p: string): ToolResult {
  return {
    status: 'failed',
    output: `${p} changed on disk while the user was reviewing this change (another window or program wrote it), so nothing was written. Read it again and propose the change against what it holds now.`,
  };
}

function hunkList(indexes: readonly number[]): string {
  const numbers = indexes.map((index) => String(index + 1));
  if (numbers.length === 1) return `hunk ${numbers[0]}`;
  return `hunks ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}
