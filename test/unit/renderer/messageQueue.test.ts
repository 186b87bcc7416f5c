import { describe, expect, it } from 'vitest';
import { EMPTY_QUEUE, HELD_AFTER, NOT_DELIVERED, nextToSend, queueReducer, type MessageQueue, type QueueAction } from '../../../src/renderer/src/features/steering/messageQueue';

const run = (...actions: QueueAction[]): MessageQueue => actions.reduce(queueReducer, EMPTY_QUEUE);

describe('the queue of messages written while a turn runs', () => {
  it('keeps them in order and sends the first once the turn ended and nothing runs', () => {
    const queue = run({ type: 'add', text: 'first' }, { type: 'add', text: 'second' }, { type: 'add', text: '   ' });
    expect(queue.messages.map((m) => m.text)).toEqual(['first', 'second']);
    // A turn still runs: nothing goes.
    expect(nextToSend(queue, false, null)).toBeNull();
    // The turn ended, but the queue has not taken that end in yet: nothing goes either.
    expect(nextToSend(queue, true, 'end-1')).toBeNull();
    const ended = queueReducer(queue, { type: 'turnEnded', key: 'end-1', status: 'completed' });
    expect(nextToSend(ended, true, 'end-1')?.text).toBe('first');
    expect(nextToSend(queueReducer(ended, { type: 'shift' }), true, 'end-1')?.text).toBe('second');
  });

  it('holds after a turn that was stopped or failed, saying why, until the person sends or releases it', () => {
    const held = run({ type: 'add', text: 'next' }, { type: 'turnEnded', key: 'e', status: 'aborted' });
    expect(held.held).toBe(HELD_AFTER.aborted);
    expect(nextToSend(held, true, 'e')).toBeNull();
    expect(nextToSend(queueReducer(held, { type: 'release' }), true, 'e')?.text).toBe('next');
    expect(run({ type: 'add', text: 'x' }, { type: 'turnEnded', key: 'e', status: 'failed' }).held).toBe(HELD_AFTER.failed);
    // The same end taken in twice changes nothing: a release stands.
    const released = queueReducer(held, { type: 'release' });
    expect(queueReducer(released, { type: 'turnEnded', key: 'e', status: 'aborted' }).held).toBeNull();
  });

  it('edits and removes a queued message; one emptied by editing is removed', () => {
    const queue = run({ type: 'add', text: 'a' }, { type: 'add', text: 'b' }, { type: 'add', text: 'c' });
    const [a, b, c] = queue.messages;
    const changed = [
      { type: 'edit', id: a.id, text: 'a, clearer' },
      { type: 'remove', id: b.id },
      { type: 'edit', id: c.id, text: '  ' },
    ].reduce((state, action) => queueReducer(state, action as QueueAction), queue);
    expect(changed.messages.map((m) => m.text)).toEqual(['a, clearer']);
  });

  it('lets go of a hold once the queue is empty', () => {
    const held = run({ type: 'add', text: 'only' }, { type: 'turnEnded', key: 'e', status: 'failed' });
    expect(queueReducer(held, { type: 'remove', id: held.messages[0].id }).held).toBeNull();
  });

  describe('Send now', () => {
    it('marks a message as sending until the turn delivers it, then takes it out of the queue', () => {
      const queue = run({ type: 'add', text: 'a' }, { type: 'add', text: '  b  ' }, { type: 'add', text: 'c' });
      const b = queue.messages[1];
      const sending = queueReducer(queue, { type: 'sendNow', id: b.id });
      expect(sending.messages.map((m) => m.sending === true)).toEqual([false, true, false]);
      // A message being sent is not edited or removed any more: the turn has it.
      expect(queueReducer(sending, { type: 'edit', id: b.id, text: 'changed' }).messages[1].text).toBe('  b  ');
      expect(queueReducer(sending, { type: 'remove', id: b.id }).messages).toHaveLength(3);
      // Delivered as main trimmed it; a message not being sent with the same text stays.
      const delivered = queueReducer(queueReducer(sending, { type: 'delivered', text: 'a' }), { type: 'delivered', text: 'b' });
      expect(delivered.messages.map((m) => m.text)).toEqual(['a', 'c']);
    });

    it('keeps a message the turn refused queued, saying why', () => {
      const sending = run({ type: 'add', text: 'a' }, { type: 'sendNow', id: 1 });
      const refused = queueReducer(sending, { type: 'steerRefused', id: 1, reason: 'No turn is running.' });
      expect(refused.messages).toEqual([{ id: 1, text: 'a' }]);
      expect(refused.notice).toBe('No turn is running.');
    });

    it('puts a message the turn ended without delivering back in the queue, first to go as the next turn', () => {
      const sending = run({ type: 'add', text: 'a' }, { type: 'add', text: 'b' }, { type: 'sendNow', id: 2 });
      const ended = queueReducer(sending, { type: 'turnEnded', key: 'e', status: 'completed' });
      expect(ended.messages).toEqual([
        { id: 2, text: 'b' },
        { id: 1, text: 'a' },
      ]);
      expect(ended.notice).toBe(NOT_DELIVERED);
      expect(nextToSend(ended, true, 'e')?.text).toBe('b');
      // A stopped turn holds it with the rest.
      const stopped = queueReducer(sending, { type: 'turnEnded', key: 'e', status: 'aborted' });
      expect(stopped.held).toBe(HELD_AFTER.aborted);
      expect(stopped.messages[0]).toEqual({ id: 2, text: 'b' });
      // Once sent, the note goes with it.
      expect(queueReducer(queueReducer(ended, { type: 'shift' }), { type: 'shift' }).notice).toBeNull();
    });
  });
});
