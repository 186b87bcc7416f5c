// Review of a file change inside the approval dialog: the diff by hunk, each
// of which the person can reject (and keep again), and the text they can
// rewrite before approving. The seeds' fields stay, folded under the diff so
// they do not say the change twice, with Resulting file following the
// person's choices. What this shows as the result is only a preview: main
// works out the content from the answer and binds the approval to it.
import { createTwoFilesPatch } from 'diff';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { Confirmation } from '../../../../shared/domain';
import type { ReviewAnswer, ReviewSubject } from '../../../../shared/review';
import { applyReview } from '../../../../shared/reviewEdits';
import { describeSize } from '../../../../shared/textSize';
import { ConfirmationFields, ConfirmationPreview, ConfirmationWarning, HiddenCharacterWarning } from '../../components/ConfirmationView';
import { DiffView } from '../../components/DiffView';
import '../../components/ConfirmationView.css';

export interface ReviewState {
  rejected: ReadonlySet<number>;
  toggle(index: number): void;
  /** The person's own text; null while they review by hunk. */
  edited: string | null;
  setEdited(text: string | null): void;
  /** What approving would write, as far as this window can tell. */
  result: string;
  /** The answer's review part, or null when the change is approved as proposed. */
  answer: ReviewAnswer | null;
  /** Nothing would change: every hunk rejected, or the text put back as it was. */
  nothingLeft: boolean;
}

export function useReview(subject: ReviewSubject | undefined): ReviewState | null {
  const [rejected, setRejected] = useState<ReadonlySet<number>>(new Set());
  const [edited, setEdited] = useState<string | null>(null);
  const fromHunks = useMemo(() => (subject ? applyReview(subject.before, subject.hunks, rejected) : ''), [subject, rejected]);
  if (!subject) return null;
  const result = edited ?? fromHunks;
  const changed = rejected.size > 0 || (edited !== null && edited !== subject.proposed);
  return {
    rejected,
    toggle: (index) =>
      setRejected((current) => {
        const next = new Set(current);
        if (!next.delete(index)) next.add(index);
        return next;
      }),
    edited,
    setEdited,
    result,
    answer: changed ? { path: subject.path, rejectedHunks: [...rejected].sort((a, b) => a - b), ...(edited !== null ? { content: edited } : {}) } : null,
    nothingLeft: result === subject.before,
  };
}

/** The fields as the seeds order them, Resulting file as the review now leaves it. */
function reviewedFields(confirmation: Confirmation, result: string): Pick<Confirmation, 'fields'> {
  return { fields: confirmation.fields.map((field) => (field.label === 'Resulting file' ? { ...field, value: describeSize(result) } : field)) };
}

export function ReviewPanel({ confirmation, subject, review }: { confirmation: Confirmation; subject: ReviewSubject; review: ReviewState }) {
  const ids = useId();
  const editing = review.edited !== null;
  const shownText = useDeferredValue(review.result);
  // While the person writes, the diff is of the file as it is against their text; the hunks are the model's.
  const editedDiff = useMemo(() => (editing ? createTwoFilesPatch(subject.path, subject.path, subject.before, shownText, '', '', { context: 3 }) : ''), [editing, subject, shownText]);
  const count = subject.hunks.length;
  const hunkAction = (index: number) => {
    const rejected = review.rejected.has(index);
    return (
      <button type="button" className="ghost small" aria-pressed={rejected} onClick={() => review.toggle(index)}>
        {rejected ? `Keep hunk ${index + 1}` : `Reject hunk ${index + 1}`}
      </button>
    );
  };
  return (
    <div className="confirmation review" data-testid="review">
      <HiddenCharacterWarning confirmation={confirmation} />
      {editing ? (
        <>
          <label htmlFor={`${ids}-text`} className="small">
            Text to write to {subject.path}
          </label>
          <textarea id={`${ids}-text`} className="review-text" data-testid="review-text" spellCheck={false} value={review.edited ?? ''} onChange={(event) => review.setEdited(event.target.value)} />
          <DiffView diff={editedDiff} heading="Your version" />
        </>
      ) : (
        <DiffView diff={confirmation.diff ?? ''} heading={count > 1 ? `Changes (${count} hunks)` : 'Changes'} hunkAction={count > 1 ? hunkAction : undefined} rejected={review.rejected} />
      )}
      <p className="review-actions">
        {editing ? (
          <button type="button" className="ghost small" onClick={() => review.setEdited(null)}>
            Back to the proposed change
          </button>
        ) : (
          <button type="button" className="ghost small" onClick={() => review.setEdited(review.result)}>
            Edit text
          </button>
        )}
        {review.answer && (
          <span className="small" data-testid="review-summary" role="status">
            {review.nothingLeft ? 'Nothing is left to write: keep a hunk or deny.' : 'Approve writes your version, not the proposal.'}
          </span>
        )}
      </p>
      <details className="review-details" data-testid="review-details">
        <summary>Details: path, project directory, what is removed and inserted</summary>
        <ConfirmationFields confirmation={reviewedFields(confirmation, review.result)} />
        {confirmation.preview !== undefined && <ConfirmationPreview preview={confirmation.preview} />}
      </details>
      <ConfirmationWarning confirmation={confirmation} />
    </div>
  );
}
