// A yes/no question whose safe answer (Cancel) is focused and is what Enter
// on it, Escape and closing the dialog all mean.
import { useId, useRef, type ReactNode } from 'react';
import { ModalDialog } from './ModalDialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Styles the confirm button as a risky action. */
  risky?: boolean;
  onConfirm(): void;
  onCancel(): void;
  testId?: string;
}

export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Cancel', risky = false, onConfirm, onCancel, testId }: ConfirmDialogProps) {
  const ids = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog labelledBy={`${ids}-title`} describedBy={`${ids}-body`} onDismiss={onCancel} initialFocus={cancel} testId={testId}>
      <h2 id={`${ids}-title`} className="dialog-title">
        {title}
      </h2>
      <div id={`${ids}-body`}>{children}</div>
      <div className="actions">
        <button type="button" ref={cancel} onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={risky ? 'danger' : 'primary'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
