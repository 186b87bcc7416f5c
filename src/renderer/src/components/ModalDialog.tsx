// One modal dialog for every question the app asks: the native <dialog> in
// modal mode (the page behind is inert), focus kept inside (Tab cycles), a
// chosen control focused on opening, focus back in the composer (or where it
// was) on closing, and every way of dismissing it (Escape, the window closing
// it) reported as one `onDismiss`, to this dialog only, never to one it was opened over.
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { focusHome } from '../lib/focusHome';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalDialogProps {
  /** Id of the element that names the dialog. */
  labelledBy: string;
  describedBy?: string;
  /** Escape or any other dismissal; the safe answer. */
  onDismiss(): void;
  /** Focused when the dialog opens (the safe choice). */
  initialFocus: RefObject<HTMLElement | null>;
  /** Runs before the dialog's own key handling; call preventDefault to take the key. */
  onKeyDown?(event: KeyboardEvent<HTMLDialogElement>): void;
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** Mounted means shown: render it only while the question stands. */
export function ModalDialog({ labelledBy, describedBy, onDismiss, initialFocus, onKeyDown, className, testId, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // Back to the composer when this was the last dialog, else to where the person was, if that is still on the page.
      if (focusHome()) return;
      if (returnFocus?.isConnected) returnFocus.focus();
    };
  }, [initialFocus]);

  function keyDown(event: KeyboardEvent<HTMLDialogElement>) {
    onKeyDown?.(event);
    if (event.defaultPrevented || event.key !== 'Tab') return;
    const dialog = ref.current;
    if (!dialog) return;
    const focusable = Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const outside = !(active instanceof Node) || !dialog.contains(active);
    if (event.shiftKey && (active === first || outside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || outside)) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-modal="true"
      data-testid={testId}
      onKeyDown={keyDown}
      onClose={(event) => {
        // Closed by the browser rather than by unmounting (a StrictMode re-show leaves it open): deny.
        if (!event.currentTarget.open) dismiss.current();
      }}
      onCancel={(event) => {
        // Escape: the dialog stays until the owner unmounts it, so the answer is given once. React passes the
        // cancel up its own tree: a dialog opened from inside another's (Decisions over Settings) would close both.
        event.preventDefault();
        event.stopPropagation();
        dismiss.current();
      }}
    >
      {children}
    </dialog>
  );
}
