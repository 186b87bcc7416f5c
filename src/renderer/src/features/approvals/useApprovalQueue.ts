// Asks for this window, in the order they came. One is shown at a time; an
// ask the service withdraws (turn stopped, session left) simply disappears.
// "Always allow" is the one answer that can leave an ask waiting: main first
// asks the person, in its own dialog, to confirm saving the rule, so the ask
// stays on screen until main says how that went.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReviewAnswer } from '../../../../shared/review';
import type { ApprovalAnswerResult, ApprovalRequestView } from '../../../../shared/sessions';
import { api, errorMessage } from '../../lib/api';

const ENDED = 'That request had already ended, so your answer was not used. Nothing ran because of it.';

/**
 * An answer to an ask: `false` denies, `true` approves this call, `'always'`
 * approves it and saves the rule it offers, `{ review }` approves the person's
 * review of a file change (main works out what that writes).
 */
export type ApprovalChoice = boolean | 'always' | { review: ReviewAnswer };

/** An ask as this window holds it: the request, and where an "Always allow" answer to it stands. */
export interface HeldApproval extends ApprovalRequestView {
  /** True while main is asking the person, in its own dialog, to confirm saving the offered rule. */
  deciding: boolean;
  /** Why the ask is still open after "Always allow" (the rule was not saved); null otherwise. */
  notice: string | null;
}

export interface ApprovalQueue {
  current: HeldApproval | null;
  waiting: number;
  answer(choice: ApprovalChoice): void;
  /** Why the last ask ended without an answer, why an answer was not taken, or the rule "Always allow" saved. */
  message: string | null;
}

interface Notice {
  requestId: string;
  text: string;
}

/** What the window says once an "Always allow" answer closed its ask; null when there is nothing to say. */
function closedAlwaysMessage(result: ApprovalAnswerResult): string | null {
  if (!result.accepted) return result.message ?? ENDED;
  return result.message ?? null;
}

export function useApprovalQueue(): ApprovalQueue {
  const [queue, setQueue] = useState<ApprovalRequestView[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [deciding, setDeciding] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  useEffect(() => {
    const stopRequests = api.onApprovalRequest((request) => {
      setMessage(null);
      // An ask sent again (its file changed on disk) replaces the one held, in its place.
      setQueue((current) =>
        current.some((r) => r.requestId === request.requestId) ? current.map((r) => (r.requestId === request.requestId ? request : r)) : [...current, request],
      );
    });
    const stopClosed = api.onApprovalClosed((closed) => {
      setMessage(`A request was withdrawn without your answer: ${closed.reason}`);
      setQueue((current) => current.filter((r) => r.requestId !== closed.requestId));
    });
    return () => {
      stopRequests();
      stopClosed();
    };
  }, []);

  const first = queue[0] ?? null;
  const remove = useCallback((requestId: string) => setQueue((list) => list.filter((r) => r.requestId !== requestId)), []);

  const answerOnce = useCallback(
    (request: ApprovalRequestView, approved: boolean) => {
      remove(request.requestId);
      api.answerApproval({ requestId: request.requestId, approved }).then(
        (result) => {
          if (!result.accepted) setMessage(ENDED);
        },
        (failure: unknown) => setMessage(`Your answer could not be delivered: ${errorMessage(failure)} Mino treats an unanswered request as denied.`),
      );
    },
    [remove],
  );

  const answerReviewed = useReviewedAnswer(remove, setMessage, setNotice);

  const answerAlways = useCallback(
    (request: ApprovalRequestView) => {
      const { requestId } = request;
      setDeciding(requestId);
      setNotice(null);
      api.answerApproval({ requestId, approved: true, alwaysAllow: true }).then(
        (result) => {
          setDeciding(null);
          if (result.open) {
            // The person did not confirm the rule in main's dialog (or main refused it): the ask waits for another answer.
            setNotice({ requestId, text: result.message ?? 'The rule was not saved. Approve this call once, or deny it.' });
            return;
          }
          remove(requestId);
          setMessage(closedAlwaysMessage(result));
        },
        (failure: unknown) => {
          setDeciding(null);
          setNotice({ requestId, text: `"Always allow" could not be delivered: ${errorMessage(failure)} No rule was saved. Approve this call once, or deny it.` });
        },
      );
    },
    [remove],
  );

  const answer = useCallback(
    (choice: ApprovalChoice) => {
      if (!first) return;
      // While main's own dialog asks about "Always allow" (one question at a time), only a denial may overtake it.
      if (choice !== false && deciding !== null) return;
      if (choice === 'always') {
        if (first.alwaysAllow) answerAlways(first);
      } else if (typeof choice === 'object') answerReviewed(first, choice.review);
      else answerOnce(first, choice);
    },
    [first, deciding, answerOnce, answerAlways, answerReviewed],
  );

  const current = useMemo<HeldApproval | null>(
    () => first && { ...first, deciding: deciding === first.requestId, notice: notice?.requestId === first.requestId ? notice.text : null },
    [first, deciding, notice],
  );

  return { current, waiting: Math.max(0, queue.length - 1), answer, message };
}

/** Sends an approval with the person's review; main may refuse it (it does not fit the ask), leaving the ask open with why. */
function useReviewedAnswer(remove: (requestId: string) => void, setMessage: (text: string | null) => void, setNotice: (notice: Notice | null) => void) {
  return useCallback(
    (request: ApprovalRequestView, review: ReviewAnswer) => {
      const { requestId } = request;
      setNotice(null);
      api.answerApproval({ requestId, approved: true, review }).then(
        (result) => {
          if (result.open) {
            setNotice({ requestId, text: result.message ?? 'Your review was not taken. Approve again, or deny.' });
            return;
          }
          remove(requestId);
          if (!result.accepted) setMessage(result.message ?? ENDED);
        },
        (failure: unknown) => setNotice({ requestId, text: `Your review could not be delivered: ${errorMessage(failure)} Nothing was written. Approve again, or deny.` }),
      );
    },
    [remove, setMessage, setNotice],
  );
}
