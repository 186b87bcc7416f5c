// A call's whole saved output (the result the model was given), in a
// scrollable view: the card shows a command's newest lines while it runs, and
// a long output is easier to read here than folded into the conversation.
import { useId, useRef } from 'react';
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';
import { ModalDialog } from '../../components/ModalDialog';

export function OutputDialog({ title, output, onClose }: { title: string; output: string; onClose(): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} className="output-dialog" testId="output-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>{title}</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      {/* Focusable so the keyboard can scroll it. */}
      <pre className="tool-output output-dialog-text" tabIndex={0} aria-label="Whole output" data-testid="output-dialog-text">
        {markHiddenCharacters(output)}
      </pre>
    </ModalDialog>
  );
}
