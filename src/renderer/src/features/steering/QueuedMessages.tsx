// The messages waiting for the running turn to end, above the message box:
// each can be edited in place or removed; a held queue says why it waits and
// offers to send the next one.
import type { Dispatch } from 'react';
import type { MessageQueue, QueueAction } from './messageQueue';
import './QueuedMessages.css';

interface QueuedMessagesProps {
  queue: MessageQueue;
  dispatch: Dispatch<QueueAction>;
  /** Sends the first queued message now (only offered while the queue is held and no turn runs). */
  onSendNext: (() => void) | null;
}

export function QueuedMessages({ queue, dispatch, onSendNext }: QueuedMessagesProps) {
  if (queue.messages.length === 0) return null;
  return (
    <section className="queued-messages" aria-label="Queued messages" data-testid="queued-messages">
      <p className="muted small">
        {queue.held ?? `Queued: ${queue.messages.length === 1 ? 'sent' : 'each sent in turn'} when the running turn ends.`}
        {queue.held !== null && onSendNext && (
          <>
            {' '}
            <button type="button" onClick={onSendNext}>
              Send next
            </button>
          </>
        )}
      </p>
      <ol className="plain-list">
        {queue.messages.map((message, index) => (
          <li key={message.id} className="queued-message" data-testid="queued-message">
            <textarea
              aria-label={`Queued message ${index + 1}`}
              value={message.text}
              rows={1}
              onChange={(event) => dispatch({ type: 'edit', id: message.id, text: event.target.value })}
            />
            <button type="button" onClick={() => dispatch({ type: 'remove', id: message.id })} aria-label={`Remove queued message ${index + 1}`}>
              Remove
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
