// The steps of Edit and resend (EditAndResend.tsx): read which turns from the
// message on have changes to undo; undo them, newest first, through the same
// channel as the Changes view (the main process leaves any file changed since
// as it is); stop to show what was left alone; then fork the session from the
// message, show the fork, and send the edited message as its next turn.
import { useEffect, useState } from 'react';
import type { ReversalReportView, SessionChangesView, TurnSummaryView } from '../../../../shared/changes';
import { api, errorMessage } from '../../lib/api';
import type { TranscriptActions } from '../changes/transcriptActions';

export type EditResendPhase = 'edit' | 'working' | 'report';

export interface EditResend {
  /** The turns to offer to undo, newest first; null until read. */
  later: TurnSummaryView[] | null;
  phase: EditResendPhase;
  /** What the undo did, shown when it left a file alone. */
  reports: ReversalReportView[];
  error: string | null;
  resend(text: string, undoFirst: boolean): Promise<void>;
  fork(text: string, undoneBefore?: boolean): Promise<void>;
}

/** The turns from the message on that have changes in place to undo, newest first. */
export function laterTurnsToUndo(changes: SessionChangesView, shownMessages: number, index: number): TurnSummaryView[] {
  // The window shows the session's last messages (since its last clear); turns are counted over the whole log.
  const turn = changes.turnCount - shownMessages + index + 1;
  return changes.turns
    .filter((summary) => summary.turn >= turn && summary.files.some((file) => file.state === 'applied' && !file.notUndoable))
    .sort((a, b) => b.turn - a.turn);
}

const leftSomethingAlone = (report: ReversalReportView) => [...report.files, ...report.resumed].some((file) => file.outcome === 'skipped');

/** `images`: the digests of the message's images, sent again with the edited text. */
export function useEditResend(actions: TranscriptActions, index: number, images: readonly string[], onClose: () => void): EditResend {
  const [later, setLater] = useState<TurnSummaryView[] | null>(null);
  const [phase, setPhase] = useState<EditResendPhase>('edit');
  const [reports, setReports] = useState<ReversalReportView[]>([]);
  const [error, setError] = useState<string | null>(null);

  // Read now, not from the transcript's copy: that is fetched once a turn ends and may lag behind it.
  useEffect(() => {
    api.listChanges().then(
      (changes) => setLater(laterTurnsToUndo(changes, actions.shownMessages, index)),
      (failure: unknown) => {
        // Resending still works; only the offer to undo is missing, and the person is told.
        setLater([]);
        setError(`The changes made after this message could not be read, so none are offered to undo: ${errorMessage(failure)}`);
      },
    );
  }, [actions.shownMessages, index]);

  async function fork(text: string, undoneBefore = false) {
    setPhase('working');
    let view;
    try {
      const opened = await api.forkSession({ message: index });
      if (opened.where !== 'here') throw new Error(`The new session ${opened.sessionId} opened in another window.`);
      view = opened.session;
    } catch (failure) {
      setPhase('edit');
      const undone = reports.length > 0 || undoneBefore ? ' The changes you chose to undo were undone; they stay undone (redo them from Changes).' : '';
      return setError(`The new session could not be made: ${errorMessage(failure)}${undone}`);
    }
    // Shown first, so the window takes the new session's events as its own.
    actions.adopt(view);
    onClose();
    try {
      await api.sendMessage({ text, ...(images.length > 0 ? { images: [...images] } : {}) });
    } catch (failure) {
      actions.notify(`The new session is open, but your message was not sent: ${errorMessage(failure)} Send it again from the message box.`, true);
    }
  }

  async function resend(text: string, undoFirst: boolean) {
    if (text.trim() === '') return setError('Write the message to send, or cancel.');
    setError(null);
    setPhase('working');
    const done: ReversalReportView[] = [];
    for (const turn of undoFirst ? (later ?? []) : []) {
      try {
        done.push(await api.reverseChanges({ action: 'undo', turn: turn.turn }));
      } catch (failure) {
        actions.refreshChanges();
        setReports(done);
        setPhase('edit');
        return setError(`Undoing turn ${turn.turn} failed, so nothing was resent: ${errorMessage(failure)}`);
      }
    }
    if (done.length > 0) {
      actions.refreshChanges();
      // Undone now: a second try (after the fork failed, say) must not undo them again.
      setLater([]);
    }
    // Something was left as it is: the person sees what before the session moves on.
    if (done.some(leftSomethingAlone)) {
      setReports(done);
      return setPhase('report');
    }
    await fork(text, done.length > 0);
  }

  return { later, phase, reports, error, resend, fork };
}
