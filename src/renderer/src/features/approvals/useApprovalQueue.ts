// Asks for this window, in the order they came. One is shown at a time; an
// ask the service withdraws (turn stopped, session left) simply disappears.
import { useCallback, useEffect, useState } from 'react';
import type { ApprovalRequestView } from '../../../../shared/sessions';
import { api, errorMessage } from '../../lib/api';

export interface ApprovalQueue {
  current: ApprovalRequestView | null;
  waiting: number;
  answer(approved: boolean): void;
  /** Why the last ask ended without an answer, or why an answer was not taken. */
  message: string | null;
}

export function useApprovalQueue(): ApprovalQueue {
  const [queue, setQueue] = useState<ApprovalRequestView[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const stopRequests = api.onApprovalRequest((request) => {
      setMessage(null);
      setQueue((current) => (current.some((r) => r.requestId === request.requestId) ? current : [...current, request]));
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

  const current = queue[0] ?? null;
  const answer = useCallback(
    (approved: boolean) => {
      if (!current) return;
      setQueue((list) => list.filter((r) => r.requestId !== current.requestId));
      api.answerApproval({ requestId: current.requestId, approved }).then(
        (result) => {
          if (!result.accepted) setMessage('That request had already ended, so your answer was not used. Nothing ran because of it.');
        },
        (failure: unknown) => setMessage(`Your answer could not be delivered: ${errorMessage(failure)} Mino treats an unanswered request as denied.`),
      );
    },
    [current],
  );

  return { current, waiting: Math.max(0, queue.length - 1), answer, message };
}
