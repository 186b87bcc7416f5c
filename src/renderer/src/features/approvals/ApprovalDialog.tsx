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
// - "Always allow" (when the ask offers a rule) follows the same rules, has
//   no key of its own and is never focused first; the rule it saves is shown
//   before it is pressed, and main confirms it in its own dialog, so the ask
//   stays open until main says whether the rule was saved.
// - a file change can be reviewed first (ReviewPanel): hunks rejected, the
//   text rewritten; main decides what that approves. If the file changes on
//   disk while the dialog is open, main sends the ask again saying so, and
//   nothing here can approve it any more.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { confirmationRiskHints } from '../../../../shared/bashRiskHints';
import { askedByRulesLine } from '../../../../shared/transcriptText';
import type { ApprovalChoice, HeldApproval } from './useApprovalQueue';
import { ConfirmationView } from '../../components/ConfirmationView';
import { ReviewPanel, useReview, type ReviewState } from './ReviewPanel';
import { ModalDialog } from '../../components/ModalDialog';
import { isDeliberateKey, sinceLastKey, TYPING_GAP_MS, typingUnderWay } from './keyboardActivity';

interface ApprovalDialogProps {
  /** The ask, with where an "Always allow" answer to it stands. */
  request: HeldApproval;
  /** Asks queued behind this one. */
  waiting: number;
  onAnswer(choice: ApprovalChoice): void;
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

/** The two ways to say yes: this call once, or this call and every call the offered rule covers. */
type Yes = 'once' | 'always';

interface YesButtons {
  once: RefObject<HTMLButtonElement | null>;
  always: RefObject<HTMLButtonElement | null>;
}

/**
 * The rules that keep an approval deliberate: Enter denies, and y, Space on
 * Approve or Always allow, or a click on one of them, say yes only once
 * armed, and only as a key pressed on its own or a click that began on that
 * same button then. `y` is Approve's key alone: Always allow has no key of
 * its own, so nothing typed can save a rule.
 */
function useDeliberateApproval(onAnswer: (choice: ApprovalChoice) => void, onYes: (yes: Yes) => void, buttons: YesButtons) {
  const [armed, setArmed] = useState(false);
  /** The button a pointer was pressed on once armed; a click counts only on that one. */
  const pressedWhileArmed = useRef<Yes | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), APPROVE_ARMING_MS);
    return () => clearTimeout(timer);
  }, []);

  const [refusedKey, setRefusedKey] = useState(false);
  function yesByKey(event: KeyboardEvent<HTMLDialogElement>, yes: Yes) {
    event.preventDefault();
    if (armed && !event.repeat && isDeliberateKey(event.nativeEvent)) onYes(yes);
    else setRefusedKey(true);
  }

  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    // Keys typed into the review's text are text: none of them answers.
    if (event.target instanceof HTMLTextAreaElement && event.key !== 'Escape') return;
    if (event.key === 'Enter') {
      // Whatever has focus, Enter means no (a held Enter is swallowed, so it cannot answer the next ask).
      event.preventDefault();
      if (!event.repeat) onAnswer(false);
    } else if ((event.key === 'y' || event.key === 'Y') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      yesByKey(event, 'once');
    } else if (event.key === ' ' && event.target === buttons.once.current) {
      // Space would click the focused button; it follows the same rule as y.
      yesByKey(event, 'once');
    } else if (event.key === ' ' && event.target === buttons.always.current) {
      yesByKey(event, 'always');
    }
  }

  function click(event: MouseEvent<HTMLButtonElement>, yes: Yes) {
    // A pointer click counts only if it began on this button after arming; a click with no pointer
    // (assistive technology) counts once armed and when no typing is under way.
    const fromPointer = event.detail > 0;
    const counts = armed && (fromPointer ? pressedWhileArmed.current === yes : !typingUnderWay(performance.now()));
    pressedWhileArmed.current = null;
    if (counts) onYes(yes);
  }

  function pointerDown(yes: Yes) {
    pressedWhileArmed.current = armed ? yes : null;
  }

  return { armed, refusedKey, keyDown, click, pointerDown };
}

/** The tool's name, and where this ask stands among the others. */
function ApprovalHeader({ titleId, request, waiting }: { titleId: string; request: HeldApproval; waiting: number }) {
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

/** What the ask is: the file changed under it (when it did), the rules that asked, then the change to review or the confirmation. */
function ApprovalBody({ request, review }: { request: HeldApproval; review: ReviewState | null }) {
  return (
    <>
      {request.targetChanged !== undefined && (
        <p className="warning" role="alert" data-testid="approval-target-changed">
          {request.targetChanged}
        </p>
      )}
      {request.confirmation.rules && (
        <p className="small" data-testid="asked-by-rule">
          {askedByRulesLine(request.confirmation.rules)}
        </p>
      )}
      {review && request.review ? (
        <ReviewPanel confirmation={request.confirmation} subject={request.review} review={review} />
      ) : (
        <ConfirmationView confirmation={request.confirmation} />
      )}
    </>
  );
}

function OpenApprovalDialog({ request, waiting, onAnswer }: ApprovalDialogProps) {
  const ids = useId();
  const deny = useRef<HTMLButtonElement>(null);
  const once = useRef<HTMLButtonElement>(null);
  const always = useRef<HTMLButtonElement>(null);
  const { deciding, notice } = request;
  const review = useReview(request.review);
  const stale = request.targetChanged !== undefined;
  const onYes = (yes: Yes) => {
    if (stale || review?.nothingLeft) return;
    if (yes === 'always') {
      // A rule approves later proposals unseen; a change the person reworked is approved once.
      if (!review?.answer) onAnswer('always');
    } else onAnswer(review?.answer ? { review: review.answer } : true);
  };
  const deliberate = useDeliberateApproval(onAnswer, onYes, { once, always });
  // The yes is drawn as strongly as the warning: red only for what deserves it.
  const routine = request.confirmation.warningWeight === 'neutral' && confirmationRiskHints(request.confirmation).length === 0;
  const canApprove = deliberate.armed && !deciding && !stale && !review?.nothingLeft;

  return (
    <ModalDialog
      labelledBy={`${ids}-title`}
      describedBy={`${ids}-hint`}
      onDismiss={() => onAnswer(false)}
      initialFocus={deny}
      onKeyDown={deliberate.keyDown}
      className="approval"
      testId="approval-dialog"
    >
      <ApprovalHeader titleId={`${ids}-title`} request={request} waiting={waiting} />
      <ApprovalBody request={request} review={review} />
      <p id={`${ids}-hint`} className="muted small" data-testid="approval-hint">
        {deliberate.refusedKey
          ? 'That key did not approve: keys typed quickly, or in the first moment, never do. Pause, then press y, or click Approve.'
          : 'Enter or Escape denies. Press y or click Approve to let it run.'}
      </p>
      {request.alwaysAllow && <AlwaysAllowLines rule={request.alwaysAllow} deciding={deciding} notice={notice} />}
      {!request.alwaysAllow && notice && (
        <p className="small error" role="status" data-testid="approval-notice">
          {notice}
        </p>
      )}
      <div className="actions">
        <button type="button" ref={deny} onClick={() => onAnswer(false)}>
          Deny
        </button>
        {request.alwaysAllow && (
          <button
            type="button"
            ref={always}
            disabled={!canApprove || (review !== null && review.answer !== null)}
            onPointerDown={() => deliberate.pointerDown('always')}
            onClick={(event) => deliberate.click(event, 'always')}
          >
            Always allow
          </button>
        )}
        <button
          type="button"
          ref={once}
          className={routine ? 'primary' : 'danger'}
          disabled={!canApprove}
          onPointerDown={() => deliberate.pointerDown('once')}
          onClick={(event) => deliberate.click(event, 'once')}
        >
          Approve
        </button>
      </div>
    </ModalDialog>
  );
}

/** The exact rule "Always allow" saves, shown before it is pressed; then main's question, or why the rule was not saved. */
function AlwaysAllowLines({ rule, deciding, notice }: { rule: string; deciding: boolean; notice: string | null }) {
  return (
    <>
      <p className="small" data-testid="always-allow-rule">
        Always allow saves the rule <code>{rule}</code> for this project: calls it covers then run without asking you, in every
        permission mode. Mino asks you to confirm it in its own dialog first.
      </p>
      {(deciding || notice) && (
        <p className={deciding ? 'small' : 'small error'} role="status" data-testid="always-allow-status">
          {deciding ? 'Confirm or cancel saving the rule in Mino\'s own dialog.' : notice}
        </p>
      )}
    </>
  );
}
