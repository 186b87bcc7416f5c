// The messages waiting for the running turn to end, above the message box:
// each can be edited in place or removed, or sent to the running turn now
// (delivered before its next model request); a held queue says why it waits
// and offers to send the next one.
import type { Dispatch } from 'react';
import type { MessageQueue, QueueAction, QueuedMessage } from './messageQueue';
import './QueuedMessages.css';

interface QueuedMessagesProps {
  queue: MessageQueue;
  dispatch: Dispatch<QueueAction>;
  /** Sends the first queued message now (only offered while the queue is held and no turn runs). */
  onSendNext: (() => void) | null;
  /** Hands a message to the running turn (only offered while a turn runs). */
  onSendNow?: ((message: QueuedMessage) => void) | null;
}

export function QueuedMessages({ queue, dispatch, onSendNext, onSendNow = null }: QueuedMessagesProps) {
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
      {queue.notice !== null && (
        <p className="small" role="status" data-testid="queued-notice">
          {queue.notice}
        </p>
      )}
      <ol className="plain-list">
        {queue.messages.map((message, index) => (
          <li key={message.id} className="queued-message" data-testid="queued-message" data-sending={message.sending ? 'true' : undefined}>
            <textarea
              aria-label={`Queued message ${index + 1}`}
              value={message.text}
              rows={1}
              readOnly={message.sending}
              onChange={(event) => dispatch({ type: 'edit', id: message.id, text: event.target.value })}
            />
            {message.sending ? (
              <span className="muted small queued-sending" role="status">
                Sending before the next step…
              </span>
            ) : (
              <>
                {onSendNow && (
                  <button
                    type="button"
                    onClick={() => onSendNow(message)}
                    aria-label={`Send now: queued message ${index + 1}`}
                    title="Deliver it to the running turn before its next model request"
                  >
                    Send now
                  </button>
                )}
                <button type="button" onClick={() => dispatch({ type: 'remove', id: message.id })} aria-label={`Remove queued message ${index + 1}`}>
                  Remove
                </button>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
