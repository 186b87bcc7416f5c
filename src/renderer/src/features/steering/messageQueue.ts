// Messages the person wrote while a turn ran: held in order and sent, one per
// turn, as each turn ends. Pure, so the rules are tested without a window.
// A turn that was stopped or failed holds the queue: the person ended it, or
// must see why it failed, before anything else is sent on their behalf.
// "Send now" hands one to the running turn instead: it is marked as sending
// until the turn delivers it (then it leaves the queue), and if the turn ends
// without delivering it, it goes back to the front, to be sent as the next turn.

export interface QueuedMessage {
  /** Stable for the message's life in the queue (list keys, focus). */
  id: number;
  text: string;
  /** Handed to the running turn ("Send now"), not yet delivered: no longer edited or removed. */
  sending?: true;
}

export interface MessageQueue {
  messages: QueuedMessage[];
  /** Why the queue waits for the person instead of sending the next message when the turn ends; null: it sends. */
  held: string | null;
  nextId: number;
  /** The key of the last turn end the queue has taken in: until it has seen the newest, it sends nothing. */
  seenEnd: string | null;
  /** What became of a message sent with Send now that is back in the queue; null when there is nothing to say. */
  notice: string | null;
}

export const EMPTY_QUEUE: MessageQueue = { messages: [], held: null, nextId: 1, seenEnd: null, notice: null };

export type QueueAction =
  | { type: 'add'; text: string }
  | { type: 'remove'; id: number }
  | { type: 'edit'; id: number; text: string }
  /** The turn ended (`key`: its end's unique key): `completed` lets the queue go on; any other end holds it. */
  | { type: 'turnEnded'; key: string; status: string }
  /** The person sent (or chose to send) the next message themselves: the queue goes on. */
  | { type: 'release' }
  /** The first message was handed to send. */
  | { type: 'shift' }
  /** Send now: the message is being handed to the running turn. */
  | { type: 'sendNow'; id: number }
  /** The running turn did not take it (`reason` says why): it stays queued. */
  | { type: 'steerRefused'; id: number; reason: string }
  /** The running turn delivered a message with this text (as main trimmed it). */
  | { type: 'delivered'; text: string };

export const HELD_AFTER: Record<string, string> = {
  aborted: 'The turn was stopped, so your queued messages wait. Send the next one when you are ready.',
  failed: 'The turn failed, so your queued messages wait. Send the next one when you are ready.',
  limit: 'The turn reached a limit, so your queued messages wait. Send the next one when you are ready.',
};

export const NOT_DELIVERED = 'The turn ended before its next model request, so your message was not sent during it: it goes first, as your next message.';

export function queueReducer(queue: MessageQueue, action: QueueAction): MessageQueue {
  switch (action.type) {
    case 'add':
      if (action.text.trim() === '') return queue;
      return { ...queue, messages: [...queue.messages, { id: queue.nextId, text: action.text }], nextId: queue.nextId + 1 };
    case 'remove':
      return withMessages(queue, queue.messages.filter((message) => message.id !== action.id || message.sending));
    case 'edit':
      if (queue.messages.some((message) => message.id === action.id && message.sending)) return queue;
      // Emptied by editing: gone, as if removed.
      if (action.text.trim() === '') return withMessages(queue, queue.messages.filter((message) => message.id !== action.id));
      return { ...queue, messages: queue.messages.map((message) => (message.id === action.id ? { ...message, text: action.text } : message)) };
    case 'turnEnded':
      if (action.key === queue.seenEnd) return queue;
      return turnEnded(queue, action.key, action.status);
    case 'release':
      return { ...queue, held: null };
    case 'shift':
      // What the notice told of has gone now, or waits its turn as any other queued message.
      return { ...withMessages(queue, queue.messages.slice(1)), notice: null };
    case 'sendNow':
      return { ...queue, notice: null, messages: queue.messages.map((message) => (message.id === action.id ? { ...message, sending: true } : message)) };
    case 'steerRefused':
      // Already back in the queue and sent, or removed: nothing left to say about it.
      if (!queue.messages.some((message) => message.id === action.id)) return queue;
      return { ...queue, notice: action.reason, messages: queue.messages.map((message) => (message.id === action.id ? unsent(message) : message)) };
    case 'delivered': {
      const index = queue.messages.findIndex((message) => message.sending && message.text.trim() === action.text);
      return index === -1 ? queue : withMessages(queue, queue.messages.filter((_, at) => at !== index));
    }
  }
}

/** The turn's end: what it did not deliver goes back to the front (the person wanted it first), and the queue sends or holds. */
function turnEnded(queue: MessageQueue, key: string, status: string): MessageQueue {
  const undelivered = queue.messages.filter((message) => message.sending).map(unsent);
  const messages = [...undelivered, ...queue.messages.filter((message) => !message.sending)];
  return {
    ...queue,
    messages,
    seenEnd: key,
    held: status === 'completed' || messages.length === 0 ? null : (HELD_AFTER[status] ?? HELD_AFTER.failed),
    notice: undelivered.length > 0 ? NOT_DELIVERED : queue.notice,
  };
}

function unsent(message: QueuedMessage): QueuedMessage {
  return { id: message.id, text: message.text };
}

function withMessages(queue: MessageQueue, messages: QueuedMessage[]): MessageQueue {
  return { ...queue, messages, held: messages.length === 0 ? null : queue.held, notice: messages.length === 0 ? null : queue.notice };
}

/**
 * The message to send now: the first, when no turn runs and nothing is being
 * sent (`idle`), the queue has taken in the newest turn end (`lastEndKey`),
 * and it is not held.
 */
export function nextToSend(queue: MessageQueue, idle: boolean, lastEndKey: string | null): QueuedMessage | null {
  if (!idle || queue.held !== null || (lastEndKey !== null && lastEndKey !== queue.seenEnd)) return null;
  const first = queue.messages[0];
  return first && !first.sending ? first : null;
}
