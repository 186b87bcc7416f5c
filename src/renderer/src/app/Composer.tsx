// Where the next question is written. While a turn runs it offers Stop; while
// unknown results wait for acknowledgment it explains why it will not send.
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessage } from '../lib/api';
import { ErrorMessage } from '../components/ErrorMessage';
import { useMentions } from '../features/files/useMentions';

interface ComposerProps {
  busy: boolean;
  /** Why sending is not possible right now; null when it is. */
  blockedReason: string | null;
  onSend(text: string): Promise<void>;
  onStop(): Promise<void>;
}

export function Composer({ busy, blockedReason, onSend, onStop }: ComposerProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [stopping, setStopping] = useState(false);
  const mentions = useMentions(text, setText);
  const canSend = !busy && !sending && blockedReason === null && text.trim() !== '';

  async function send() {
    if (!canSend) return;
    setSending(true);
    setError(null);
    try {
      await onSend(text);
      setText('');
    } catch (failure) {
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
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void send();
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (mentions.onKeyDown(event)) return;
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  }

  const hint = blockedReason ?? (busy ? 'Mino is working on your question.' : 'Ctrl+Enter (⌘+Enter) sends.');
  return (
    <form className="composer" onSubmit={submit} aria-label="Message">
      <label htmlFor={id} className="visually-hidden">
        Message to Mino
      </label>
      {mentions.popup}
      <textarea
        {...mentions.inputProps}
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
        rows={3}
        placeholder="Ask Mino to read or change files in this project…"
        aria-describedby={`${id}-hint`}
      />
      <ErrorMessage text={error} />
      <div className="composer-bar">
        <span id={`${id}-hint`} className="muted small">
          {hint}
        </span>
        <span className="composer-actions">
          {busy && (
            <button type="button" className="danger" onClick={() => void stop()} disabled={stopping}>
              Stop
            </button>
          )}
          <button type="submit" className="primary" disabled={!canSend}>
            Send
          </button>
        </span>
      </div>
    </form>
  );
}
