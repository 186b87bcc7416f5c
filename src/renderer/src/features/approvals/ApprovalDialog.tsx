// The question before a call runs. Deny is the default: Enter, Escape and the
// dialog closing all deny; approving takes a click on Approve or the y key,
// and neither counts in the first moment after a dialog appears, so a key or
// click meant for something else cannot approve what was never read.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ApprovalRequestView } from '../../../../shared/sessions';
import { ConfirmationView } from '../../components/ConfirmationView';
import { ModalDialog } from '../../components/ModalDialog';

interface ApprovalDialogProps {
  request: ApprovalRequestView;
  /** Asks queued behind this one. */
  waiting: number;
  onAnswer(approved: boolean): void;
}

/** How long after a dialog appears before Approve (button or y) counts. */
export const APPROVE_ARMING_MS = 500;

export function ApprovalDialog({ request, waiting, onAnswer }: ApprovalDialogProps) {
  const ids = useId();
  const deny = useRef<HTMLButtonElement>(null);
  const [armedFor, setArmedFor] = useState<string | null>(null);
  const armed = armedFor === request.requestId;
  useEffect(() => {
    const timer = setTimeout(() => setArmedFor(request.requestId), APPROVE_ARMING_MS);
    return () => clearTimeout(timer);
  }, [request.requestId]);

  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.repeat) {
      // A held key must not answer the next ask in the queue.
      if (event.key === 'Enter' || event.key.toLowerCase() === 'y') event.preventDefault();
      return;
    }
    if (event.key === 'Enter') {
      // Whatever has focus, Enter means no.
      event.preventDefault();
      onAnswer(false);
    } else if ((event.key === 'y' || event.key === 'Y') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      if (armed) onAnswer(true);
    }
  }

  return (
    <ModalDialog
      labelledBy={`${ids}-title`}
      describedBy={`${ids}-hint`}
      onDismiss={() => onAnswer(false)}
      initialFocus={deny}
      onKeyDown={keyDown}
      className="approval"
      testId="approval-dialog"
    >
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Approve {request.toolName}?</h2>
        {waiting > 0 && (
          <span className="badge" data-testid="approval-waiting">
            {waiting} more waiting
          </span>
        )}
      </header>
      <p className="muted small">[Tool: {request.toolName}]</p>
      <ConfirmationView confirmation={request.confirmation} />
      <p id={`${ids}-hint`} className="muted small">
        Enter or Escape denies. Press y or click Approve to let it run.
      </p>
      <div className="actions">
        <button type="button" ref={deny} onClick={() => onAnswer(false)}>
          Deny
        </button>
        <button type="button" className="danger" disabled={!armed} onClick={() => onAnswer(true)}>
          Approve
        </button>
      </div>
    </ModalDialog>
  );
}
