// Edit and resend, on a message of the person's: the message can be rewritten
// and sent again from where it was. The files the turns from that message on
// changed are listed with an offer to undo them first (each only if still as
// its turn left it; what was left alone is shown before going on). Then the
// session is continued from that message as a new session, a fork, in this
// window: the conversation before the message, then the edited message as its
// next turn. The original stays as it was, in the sidebar.
import { useId, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ModalDialog } from '../../components/ModalDialog';
import { ReversalReport } from '../changes/reversal';
import { useTranscriptActions, type TranscriptActions } from '../changes/transcriptActions';
import { useEditResend } from './useEditResend';
import './EditAndResend.css';

/** The button on a message of the person's; offered between turns only. */
export function EditAndResend({ itemKey, text, images = [] }: { itemKey: string; text: string; images?: readonly string[] }) {
  const actions = useTranscriptActions();
  const [open, setOpen] = useState(false);
  const index = actions?.messageIndex(itemKey) ?? null;
  if (!actions || index === null || (actions.busy && !open)) return null;
  return (
    <>
      <button type="button" className="ghost small message-action" onClick={() => setOpen(true)}>
        Edit and resend
      </button>
      {open && <EditResendDialog actions={actions} index={index} original={text} images={images} onClose={() => setOpen(false)} />}
    </>
  );
}

function EditResendDialog({ actions, index, original, images, onClose }: { actions: TranscriptActions; index: number; original: string; images: readonly string[]; onClose(): void }) {
  const ids = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(original);
  const [undoFirst, setUndoFirst] = useState(true);
  const { later, phase, reports, error, resend, fork } = useEditResend(actions, index, images, onClose);
  const paths = [...new Set((later ?? []).flatMap((turn) => turn.files.filter((file) => file.state === 'applied' && !file.notUndoable).map((file) => file.path)))];

  const working = phase === 'working';
  return (
    <ModalDialog labelledBy={`${ids}-title`} describedBy={`${ids}-about`} onDismiss={onClose} initialFocus={field} className="edit-resend" testId="edit-resend-dialog">
      <h2 id={`${ids}-title`} className="dialog-title">
        Edit and resend
      </h2>
      <p id={`${ids}-about`} className="muted small">
        Mino goes on from here in a new session: it keeps the conversation before this message and sends yours in its place. This session stays as it
        is, and you can open it again from the sidebar.
      </p>
      <label htmlFor={`${ids}-text`}>Your message</label>
      <textarea id={`${ids}-text`} ref={field} className="edit-resend-text" rows={5} value={text} disabled={phase !== 'edit'} onChange={(event) => setText(event.target.value)} />
      {images.length > 0 && (
        <p className="muted small">{images.length === 1 ? 'The image of this message is sent again with it.' : `The ${images.length} images of this message are sent again with it.`}</p>
      )}
      {paths.length > 0 && <LaterFiles paths={paths} undoFirst={undoFirst} disabled={phase !== 'edit'} onUndoFirst={setUndoFirst} />}
      {reports.map((report) => (
        <ReversalReport key={report.turn ?? 0} report={report} />
      ))}
      <ErrorMessage text={error} />
      <div className="actions">
        <button type="button" onClick={onClose} disabled={working}>
          Cancel
        </button>
        {phase === 'report' ? (
          <button type="button" className="primary" onClick={() => void fork(text)}>
            Continue
          </button>
        ) : (
          <button type="button" className="primary" disabled={working || later === null} onClick={() => void resend(text, undoFirst)}>
            Resend as a new session
          </button>
        )}
      </div>
    </ModalDialog>
  );
}

/** The files the turns from the message on changed, and the offer to undo them first. */
function LaterFiles({ paths, undoFirst, disabled, onUndoFirst }: { paths: string[]; undoFirst: boolean; disabled: boolean; onUndoFirst(value: boolean): void }) {
  const ids = useId();
  return (
    <section className="edit-resend-files" aria-labelledby={`${ids}-files`}>
      <h3 id={`${ids}-files`}>Files changed from this message on</h3>
      <ul data-testid="fork-files">
        {paths.map((path) => (
          <li key={path}>{path}</li>
        ))}
      </ul>
      <label className="edit-resend-undo">
        <input type="checkbox" checked={undoFirst} disabled={disabled} onChange={(event) => onUndoFirst(event.target.checked)} /> Undo these changes first
      </label>
      <p className="muted small">Each file goes back only if it is still exactly what its turn left; a file changed since is left as it is.</p>
    </section>
  );
}
