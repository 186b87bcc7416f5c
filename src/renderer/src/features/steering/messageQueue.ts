// Messages the person wrote while a turn ran: held in order and sent, one per
// turn, as each turn ends. Pure, so the rules are tested without a window.
// A turn that was stopped or failed holds the queue: the person ended it, or
// must see why it failed, before anything else is sent on their behalf.

export interface QueuedMessage {
  /** Stable for the message's life in the queue (list keys, focus). */
  id: number;
  text: string;
}

export interface MessageQueue {
  messages: QueuedMessage[];
  /** Why the queue waits for the person instead of sending the next message when the turn ends; null: it sends. */
  held: string | null;
  nextId: number;
  /** The key of the last turn end the queue has taken in: until it has seen the newest, it sends nothing. */
  seenEnd: string | null;
}

export const EMPTY_QUEUE: MessageQueue = { messages: [], held: null, nextId: 1, seenEnd: null };

export type QueueAction =
  | { type: 'add'; text: string }
  | { type: 'remove'; id: number }
  | { type: 'edit'; id: number; text: string }
  /** The turn ended (`key`: its end's unique key): `completed` lets the queue go on; any other end holds it. */
  | { type: 'turnEnded'; key: string; status: string }
  /** The person sent (or chose to send) the next message themselves: the queue goes on. */
  | { type: 'release' }
  /** The first message was handed to send. */
  | { type: 'shift' };

export const HELD_AFTER: Record<string, string> = {
  aborted: 'The turn was stopped, so your queued messages wait. Send the next one when you are ready.',
  failed: 'The turn failed, so your queued messages wait. Send the next one when you are ready.',
  limit: 'The turn reached a limit, so your queued messages wait. Send the next one when you are ready.',
};

export function queueReducer(queue: MessageQueue, action: QueueAction): MessageQueue {
  switch (action.type) {
    case 'add':
      if (action.text.trim() === '') return queue;
      return { ...queue, messages: [...queue.messages, { id: queue.nextId, text: action.text }], nextId: queue.nextId + 1 };
    case 'remove':
      return withMessages(queue, queue.messages.filter((message) => message.id !== action.id));
    case 'edit':
      // Emptied by editing: gone, as if removed.
      if (action.text.trim() === '') return withMessages(queue, queue.messages.filter((message) => message.id !== action.id));
      return { ...queue, messages: queue.messages.map((message) => (message.id === action.id ? { ...message, text: action.text } : message)) };
    case 'turnEnded':
      if (action.key === queue.seenEnd) return queue;
      return {
        ...queue,
        seenEnd: action.key,
        held: action.status === 'completed' || queue.messages.length === 0 ? null : (HELD_AFTER[action.status] ?? HELD_AFTER.failed),
      };
    case 'release':
      return { ...queue, held: null };
    case 'shift':
      return withMessages(queue, queue.messages.slice(1));
  }
}

function withMessages(queue: MessageQueue, messages: QueuedMessage[]): MessageQueue {
  return { ...queue, messages, held: messages.length === 0 ? null : queue.held };
}

/**
 * The message to send now: the first, when no turn runs and nothing is being
 * sent (`idle`), the queue has taken in the newest turn end (`lastEndKey`),
 * and it is not held.
 */
export function nextToSend(queue: MessageQueue, idle: boolean, lastEndKey: string | null): QueuedMessage | null {
  if (!idle || queue.held !== null || (lastEndKey !== null && lastEndKey !== queue.seenEnd)) return null;
  return queue.messages[0] ?? null;
}
