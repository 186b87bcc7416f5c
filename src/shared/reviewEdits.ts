// A review's choices applied to a file's text: main writes the result, the
// approval dialog shows it. Kept apart from the review's schemas (review.ts),
// which the CLI, reviewing nothing, would otherwise build at every start.
import type { ReviewHunk } from './review';

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
