// Which session may run its last turn again (Retry): one whose last turn
// failed after its message was saved, so the message is in the log and the
// history once and Retry needs neither to hold it a second time. A turn
// refused before it saved anything (no API key, images a service does not
// take) has nothing to run again: the person sends the message anew. Memory
// only: a session opened later starts with nothing to retry.
import type { ImageRef } from '../../../shared/images';
import type { TurnEvent } from '../../core/agent/events';
import type { OpenSession } from './openSession';

export interface FailedMessage {
  text: string;
  images?: ImageRef[];
}

/** Watches one turn: whether its message was saved (or is a retry of one that was), and how it ended. */
export interface TurnWatch {
  saw(event: TurnEvent): void;
  ended(status: string): void;
}

export class NothingToRetryError extends Error {
  constructor(why: string) {
    super(`Nothing to retry: ${why} Send your message instead.`);
    this.name = 'NothingToRetryError';
  }
}

export class FailedTurns {
  private readonly failed = new WeakMap<OpenSession, FailedMessage>();

  /** A turn starts: the last one is no longer the one to retry; it becomes so if this one fails once its message is saved. */
  watch(session: OpenSession, message: FailedMessage & { retry: boolean }): TurnWatch {
    this.failed.delete(session);
    let saved = message.retry;
    return {
      saw: (event) => {
        if (event.type === 'user_message') saved = true;
      },
      ended: (status) => {
        if (status === 'failed' && saved) this.failed.set(session, { text: message.text, ...(message.images ? { images: message.images } : {}) });
      },
    };
  }

  /**
   * The message to run again. Refused when the last turn did not fail, or when the history no longer ends
   * with that message as the person's last (the session was cleared or compacted since): the model would
   * not read it then.
   */
  retryable(session: OpenSession): FailedMessage {
    const failed = this.failed.get(session);
    if (!failed) throw new NothingToRetryError('the last turn of this session did not fail.');
    const last = session.conversation.historyItems.findLast((item) => item.type === 'message' && item.role === 'user' && !('steered' in item && item.steered));
    if (!last || last.type !== 'message' || last.text !== failed.text) {
      this.failed.delete(session);
      throw new NothingToRetryError('the conversation changed since that turn failed (it was cleared or summarized).');
    }
    return failed;
  }
}
