// The question before a call runs. Deny is the default: Enter, Escape and the
// dialog closing all deny. Approving is made hard to do by accident:
// - while the person is typing (keys less than TYPING_GAP_MS apart) the dialog
//   does not open, so it cannot take the keys, and they stay where they were
//   going (the composer); a line says an approval is waiting;
// - once open, Approve counts only after the dialog has been up a moment
//   (APPROVE_ARMING_MS), and only from a click that began on the Approve
//   button then, or from the `y` key (or Space on Approve) pressed on its own,
//   after a pause: a key that is part of typing, or one held down from before
//   the dialog appeared, never approves.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import type { ApprovalRequestView } from '../../../../shared/sessions';
import { askedByRulesLine } from '../../../../shared/transcriptText';
import { ConfirmationView } from '../../components/ConfirmationView';
import { ModalDialog } from '../../components/ModalDialog';
import { isDeliberateKey, sinceLastKey, TYPING_GAP_MS, typingUnderWay } from './keyboardActivity';

interface ApprovalDialogProps {
  request: ApprovalRequestView;
  /** Asks queued behind this one. */
  waiting: number;
  onAnswer(approved: boolean): void;
}

/** How long the open dialog must have been shown before Approve (button or y) counts. */
export const APPROVE_ARMING_MS = 1000;

export function ApprovalDialog(props: ApprovalDialogProps) {
  const open = useOpensWhenTypingStops();
  if (!open) {
    return (
      <p className="approval-pending" role="status" data-testid="approval-pending">
        {props.request.toolName} is waiting for your approval; it opens when you stop typing.
      </p>
    );
  }
  return <OpenApprovalDialog {...props} />;
}

/** False while keys are coming less than TYPING_GAP_MS apart; true from the first pause on. */
function useOpensWhenTypingStops(): boolean {
  const [open, setOpen] = useState(() => !typingUnderWay(performance.now()));
  useEffect(() => {
    if (open) return;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const now = performance.now();
      if (!typingUnderWay(now)) setOpen(true);
      else timer = setTimeout(check, TYPING_GAP_MS - sinceLastKey(now) + 10);
    };
    check();
    return () => clearTimeout(timer);
  }, [open]);
  return open;
}

/**
 * The rules that keep an approval deliberate: Enter denies, and y, Space on
 * Approve or a click on it approve only once armed, and only as a key pressed
 * on its own or a click that began on Approve then.
 */
function useDeliberateApproval(onAnswer: (approved: boolean) => void, approve: RefObject<HTMLButtonElement | null>) {
  const [armed, setArmed] = useState(false);
  /** Set by a pointer pressed on Approve once armed; a click counts only then. */
  const pressedWhileArmed = useRef(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), APPROVE_ARMING_MS);
    return () => clearTimeout(timer);
  }, []);

  const [refusedKey, setRefusedKey] = useState(false);
  function approveByKey(event: KeyboardEvent<HTMLDialogElement>) {
    event.preventDefault();
    if (armed && !event.repeat && isDeliberateKey(event.nativeEvent)) onAnswer(true);
    else setRefusedKey(true);
  }

  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Enter') {
      // Whatever has focus, Enter means no (a held Enter is swallowed, so it cannot answer the next ask).
      event.preventDefault();
      if (!event.repeat) onAnswer(false);
    } else if ((event.key === 'y' || event.key === 'Y') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      approveByKey(event);
    } else if (event.key === ' ' && event.target === approve.current) {
      // Space would click the focused button; it follows the same rule as y.
      approveByKey(event);
    }
  }

  function click(event: MouseEvent<HTMLButtonElement>) {
    // A pointer click counts only if it began on Approve after arming; a click with no pointer
    // (assistive technology) counts once armed and when no typing is under way.
    const fromPointer = event.detail > 0;
    const counts = armed && (fromPointer ? pressedWhileArmed.current : !typingUnderWay(performance.now()));
    pressedWhileArmed.current = false;
    if (counts) onAnswer(true);
  }

  function pointerDown() {
    pressedWhileArmed.current = armed;
  }

  return { armed, refusedKey, keyDown, click, pointerDown };
}

/** The tool's name, and where this ask stands among the others. */
function ApprovalHeader({ titleId, request, waiting }: { titleId: string; request: ApprovalRequestView; waiting: number }) {
  return (
    <header className="dialog-header">
      <h2 id={titleId}>Approve {request.toolName}?</h2>
      {request.position ? (
        // The model asked for several calls that need approval in one response: which one this is.
        <span className="badge" data-testid="approval-position" aria-label={`Approval ${request.position.index} of ${request.position.total}`}>
          {request.position.index} of {request.position.total}
        </span>
      ) : (
        waiting > 0 && (
          <span className="badge" data-testid="approval-waiting">
            {waiting} more waiting
          </span>
        )
      )}
    </header>
  );
}

function OpenApprovalDialog({ request, waiting, onAnswer }: ApprovalDialogProps) {
  const ids = useId();
  const deny = useRef<HTMLButtonElement>(null);
  const approve = useRef<HTMLButtonElement>(null);
  const { armed, refusedKey, keyDown, click, pointerDown } = useDeliberateApproval(onAnswer, approve);

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
      <ApprovalHeader titleId={`${ids}-title`} request={request} waiting={waiting} />
      <p className="muted small">[Tool: {request.toolName}]</p>
      {request.confirmation.rules && (
        <p className="small" data-testid="asked-by-rule">
          {askedByRulesLine(request.confirmation.rules)}
        </p>
      )}
      <ConfirmationView confirmation={request.confirmation} />
      <p id={`${ids}-hint`} className="muted small" data-testid="approval-hint">
        {refusedKey
          ? 'That key did not approve: keys typed quickly, or in the first moment, never do. Pause, then press y, or click Approve.'
          : 'Enter or Escape denies. Press y or click Approve to let it run.'}
      </p>
      <div className="actions">
        <button type="button" ref={deny} onClick={() => onAnswer(false)}>
          Deny
        </button>
        <button type="button" ref={approve} className="danger" disabled={!armed} onPointerDown={pointerDown} onClick={click}>
          Approve
        </button>
      </div>
    </ModalDialog>
  );
}
