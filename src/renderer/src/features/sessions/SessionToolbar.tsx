// Session actions inside a session: start another, resume another of this
// project, or clear this one (after a confirmation: the model forgets the
// conversation, while the id and the saved log stay); and the project's
// Decisions panel and the Evaluate view. While a turn runs, that the actions
// wait is read out, not drawn: a line that came and went with each turn made
// the bar wrap and the transcript jump.
import { useId, useRef, useState } from 'react';
import type { SessionView } from '../../../../shared/sessions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ChangesDialog } from '../changes/ChangesDialog';
import { DecisionsDialog } from '../rules/DecisionsDialog';
import { EvaluateDialog } from '../evaluate/EvaluateDialog';
import { ModalDialog } from '../../components/ModalDialog';
import { api, errorMessage } from '../../lib/api';
import { applyOpenResult } from './openSessionResult';
import { SessionList } from './SessionList';
import { useProjectSessions } from './useProjectSessions';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useSessionCommands } from '../commands/windowCommands';
import { UndoCommand } from '../commands/UndoCommand';

interface SessionToolbarProps {
  view: SessionView;
  onAdopt(view: SessionView): void;
  onMessage(message: string | null, isError?: boolean): void;
  /** The Changes view closed: an undo or redo may have changed what the transcript summarises. */
  onChangesReviewed?(): void;
}

export function SessionToolbar({ view, onAdopt, onMessage, onChangesReviewed }: SessionToolbarProps) {
  const [working, setWorking] = useState(false);
  const [resuming, setResuming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const disabled = working || view.busy;

  async function run(action: () => Promise<string | null>) {
    setWorking(true);
    onMessage(null);
    try {
      onMessage(await action());
    } catch (failure) {
      onMessage(errorMessage(failure), true);
    } finally {
      setWorking(false);
    }
  }

  // The / commands of the message box take these same actions (features/commands).
  const newSession = async () => applyOpenResult(await api.newSession(), onAdopt, 'new');
  useSessionCommands(disabled, { new: () => void run(newSession), resume: () => setResuming(true), clear: () => setClearing(true), changes: () => setReviewing(true), compact: () => void run(compact) });

  return (
    <div className="toolbar" role="toolbar" aria-label="Session">
      <UndoCommand waiting={disabled} onDone={onChangesReviewed} onMessage={onMessage} />
      <button type="button" onClick={() => run(newSession)} disabled={disabled}>
        New session
      </button>
      <button type="button" onClick={() => setResuming(true)} disabled={disabled}>
        Resume…
      </button>
      <button type="button" onClick={() => setClearing(true)} disabled={disabled}>
        Clear session
      </button>
      <button type="button" onClick={() => setReviewing(true)} disabled={disabled}>
        Changes
      </button>
      <button type="button" onClick={() => run(compact)} disabled={disabled} title="Summarize the earlier turns so the model reads less">
        Compact
      </button>
      <OpenWhileBusyPanels />
      <span className="visually-hidden" role="status">{view.busy ? 'Session actions wait until the turn ends.' : ''}</span>
      {reviewing && (
        <ChangesDialog
          onClose={() => {
            setReviewing(false);
            onChangesReviewed?.();
          }}
        />
      )}
      {resuming && (
        <ResumeDialog
          currentId={view.id}
          onClose={() => setResuming(false)}
          onResume={(id) => {
            setResuming(false);
            void run(async () => applyOpenResult(await api.openSession({ id }), onAdopt, 'existing'));
          }}
        />
      )}
      {clearing && (
        <ClearDialog
          sessionId={view.id}
          onCancel={() => setClearing(false)}
          onConfirm={() => {
            setClearing(false);
            void run(async () => {
              onAdopt(await api.clearSession());
              return 'Session cleared: the model starts with an empty history. The session id and its saved log stay.';
            });
          }}
        />
      )}
    </div>
  );
}

/** The panels a running turn leaves open: the project's Decisions, and the Evaluate view. */
function OpenWhileBusyPanels() {
  const [open, setOpen] = useState<'decisions' | 'evaluate' | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      {/* Read-only but for revoking a rule, so it stays open to use while a turn runs. */}
      <button type="button" onClick={() => setOpen('decisions')} title="Every call's decision in this project, and what decided it">
        Decisions…
      </button>
      {/* Runs in fresh temporary projects, never this session's. */}
      <button type="button" onClick={() => setOpen('evaluate')} title="Run declared cases and score them from what they saved">
        Evaluate…
      </button>
      {open === 'decisions' && <DecisionsDialog onClose={close} />}
      {open === 'evaluate' && <EvaluateDialog onClose={close} />}
    </>
  );
}

/** Summarizes the earlier turns; says what that saved. */
async function compact(): Promise<string> {
  const done = await api.compactSession();
  return `Compacted: the earlier turns are summarized (${done.tokensBefore.toLocaleString('en-US')} → ${done.tokensAfter.toLocaleString('en-US')} tokens). Open the summary in the conversation to read or edit it.`;
}

function ClearDialog({ sessionId, onCancel, onConfirm }: { sessionId: string; onCancel(): void; onConfirm(): void }) {
  return (
    <ConfirmDialog title="Clear this session?" confirmLabel="Clear session" risky testId="clear-dialog" onCancel={onCancel} onConfirm={onConfirm}>
      <p>The model forgets this conversation: its history is emptied, so the next question starts fresh. The session keeps its id ({sessionId}) and its saved log.</p>
    </ConfirmDialog>
  );
}

function ResumeDialog({ currentId, onClose, onResume }: { currentId: string; onClose(): void; onResume(id: string): void }) {
  const ids = useId();
  const close = useRef<HTMLButtonElement>(null);
  const { sessions, error } = useProjectSessions();
  return (
    <ModalDialog labelledBy={`${ids}-title`} onDismiss={onClose} initialFocus={close} testId="resume-dialog">
      <header className="dialog-header">
        <h2 id={`${ids}-title`}>Resume a session</h2>
        <button type="button" className="ghost" ref={close} onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorMessage text={error} />
      <SessionList sessions={sessions} currentId={currentId} busy={false} onResume={onResume} labelledBy={`${ids}-title`} />
    </ModalDialog>
  );
}
