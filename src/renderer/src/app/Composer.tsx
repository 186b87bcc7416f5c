// Where the next question is written. Enter sends, Shift+Enter adds a line
// (never while an input method is composing); while a turn runs Enter queues
// the message instead (features/steering), and it offers Stop, and Escape
// anywhere in the window stops it too (features/sessions/useEscapeToStop); a
// turn that failed offers Retry on its own card in the transcript, so its
// message is not put back here to be sent twice; while unknown results wait
// for acknowledgment it explains why it will not send.
// It is the window's focus home (lib/focusHome).
import { useEffect, useId, useReducer, useState, type Dispatch, type FormEvent, type KeyboardEvent, type RefObject, type SetStateAction } from 'react';
import { errorMessage } from '../lib/api';
import { setFocusHome } from '../lib/focusHome';
import { ErrorMessage } from '../components/ErrorMessage';
import { useMentions } from '../features/files/useMentions';
import { EMPTY_QUEUE, nextToSend, queueReducer } from '../features/steering/messageQueue';
import { QueuedMessages } from '../features/steering/QueuedMessages';
import { useSendNow } from '../features/steering/useSendNow';
import { useCommands } from '../features/commands/useCommands';
import { ImageTray } from '../features/images/ImageTray';
import { useImageAttachments } from '../features/images/useImageAttachments';
import { imageInput, useImageSending } from '../features/images/useImageSending';
import type { TranscriptState } from '../features/transcript/transcriptModel';
import { useEscapeToStop } from '../features/sessions/useEscapeToStop';
import './Composer.css';

interface ComposerProps {
  busy: boolean;
  /** Why sending is not possible right now; null when it is. */
  blockedReason: string | null;
  /** How the latest turn ended (the queue waits on it). */
  lastEnd?: TranscriptState['lastEnd'];
  /** `images`: the ids of the images attached to the message (features/images). */
  onSend(text: string, images?: string[]): Promise<void>;
  onStop(): Promise<void>;
}

export const KEYS_HINT = 'Enter sends · Shift+Enter adds a line';
// One line at 800 px, like the idle hint, so the message box does not grow while a turn runs.
export const BUSY_HINT = 'Working on it. Enter queues your next message · Escape or Stop ends the turn.';

/** An input method (Japanese, Chinese, ...) is composing: its Enter picks a candidate, it does not send. */
function composing(event: KeyboardEvent): boolean {
  return event.nativeEvent.isComposing || event.keyCode === 229;
}

/** A session that opens here takes the keyboard at once, and the box is where focus goes home to. */
function useFocusHome(box: RefObject<HTMLTextAreaElement | null>): void {
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.focus();
    return setFocusHome(element);
  }, []);
}

/** Sending and stopping turns. */
function useTurnControls(
  { busy, blockedReason, onSend, onStop }: ComposerProps,
  setText: Dispatch<SetStateAction<string>>,
  box: RefObject<HTMLTextAreaElement | null>,
) {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stopping, setStopping] = useState(false);
  const canSend = !busy && !sending && blockedReason === null;

  async function send(message: string) {
    if (!canSend || message.trim() === '') return;
    setSending(true);
    setError(null);
    setText('');
    try {
      await onSend(message);
    } catch (failure) {
      // Not sent: the message stays where it was written.
      setText((current) => (current === '' ? message : current));
      setError(errorMessage(failure));
    } finally {
      setSending(false);
    }
  }

  async function stop() {
    setStopping(true);
    setError(null);
    try {
      await onStop();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setStopping(false);
      // The Stop button goes away with the turn: the keyboard goes back to the message.
      box.current?.focus();
    }
  }

  return { canSend, error, stopping, send, stop };
}

/** Messages written while a turn runs, each sent as a turn ends (unless the turn was stopped or failed). */
function useMessageQueue(controls: { canSend: boolean; send(message: string): Promise<void> }, lastEnd: ComposerProps['lastEnd']) {
  const [queue, dispatch] = useReducer(queueReducer, EMPTY_QUEUE);
  const endKey = lastEnd?.key ?? null;
  useEffect(() => {
    if (endKey !== null && lastEnd) dispatch({ type: 'turnEnded', key: endKey, status: lastEnd.status });
  }, [endKey]);
  const next = nextToSend(queue, controls.canSend, endKey);
  useEffect(() => {
    if (next === null) return;
    dispatch({ type: 'shift' });
    void controls.send(next.text);
  }, [next?.id]);
  const sendNext = queue.held !== null && controls.canSend ? () => dispatch({ type: 'release' }) : null;
  const sendNow = useSendNow(dispatch);
  return { queue, dispatch, sendNext, sendNow };
}

/** The composer's attached images, and its props with sending that carries them (features/images). */
function useAttachedImages(props: ComposerProps) {
  const attachments = useImageAttachments();
  return { attachments, props: useImageSending(props, attachments) };
}

export function Composer(outerProps: ComposerProps) {
  // Attached images go with the next message sent, and come back when it is not sent.
  const { attachments, props } = useAttachedImages(outerProps);
  const { busy, blockedReason } = props;
  const id = useId();
  const [text, setText] = useState('');
  const mentions = useMentions(text, setText);
  // `/` at the start lists the commands; a command runs through the window's own control (features/commands).
  const commands = useCommands(text, setText);
  /** The message box; the @ suggestions hold its ref. */
  const box = mentions.inputProps.ref;
  useFocusHome(box);
  const { canSend, error, stopping, send, stop } = useTurnControls(props, setText, box);
  const { queue, dispatch, sendNext, sendNow } = useMessageQueue({ canSend, send }, props.lastEnd);
  // Escape stops the turn wherever the keyboard is; once a stop is on its way, again is nothing.
  useEscapeToStop(busy, () => {
    if (!stopping) void stop();
  });
  /** A turn runs (or is being started): what is written now waits for it to end. */
  const queueing = busy && blockedReason === null;

  /** Sends the message, or queues it while a turn runs; sending it yourself lets a held queue go on after it. */
  function submitText() {
    if (text.trim() === '') return;
    if (commands.submit(text)) return;
    if (queueing) {
      dispatch({ type: 'add', text });
      setText('');
      return;
    }
    if (canSend) dispatch({ type: 'release' });
    void send(text);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    submitText();
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (composing(event)) return;
    if (commands.onKeyDown(event)) return;
    // While @ suggestions are open, Enter, Tab, the arrows and Escape are the list's.
    if (mentions.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      // Enter (or Ctrl/⌘+Enter) sends; Shift+Enter falls through and adds a line.
      event.preventDefault();
      submitText();
    }
  }

  const hint = blockedReason ?? (busy ? BUSY_HINT : `${KEYS_HINT}.`);
  return (
    <form className="composer" onSubmit={submit} aria-label="Message" {...imageInput(attachments)}>
      <QueuedMessages queue={queue} dispatch={dispatch} onSendNext={sendNext} onSendNow={queueing ? (message) => void sendNow(message) : null} />
      <label htmlFor={id} className="visually-hidden">
        Message to Mino
      </label>
      {mentions.popup}
      {commands.popup}
      <textarea
        {...mentions.inputProps}
        {...commands.inputProps}
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
        rows={3}
        placeholder="Ask Mino to read or change files in this project…"
        aria-describedby={`${id}-hint`}
      />
      <ImageTray attachments={attachments} />
      <ErrorMessage text={error} />
      {commands.outcome}
      <div className="composer-bar">
        <span id={`${id}-hint`} className="muted small" data-testid="composer-hint">
          {hint}
        </span>
        <span className="composer-actions">
          {busy && (
            <button type="button" className="danger" onClick={() => void stop()} disabled={stopping}>
              Stop
            </button>
          )}
          <button type="submit" className="primary" disabled={!(canSend || queueing) || text.trim() === ''}>
            {queueing ? 'Queue' : 'Send'}
          </button>
        </span>
      </div>
    </form>
  );
}
