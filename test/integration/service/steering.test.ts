// turn:steer through the real service: a message for this window's running
// turn reaches its next model request; without a running turn the answer says
// so and nothing is sent; the input is checked like turn:send's; another
// window's session is never the target.
import { afterEach, describe, expect, it } from 'vitest';
import { NO_TURN_TO_STEER } from '../../../src/main/service/features/steering';
import { EDIT_GREETING, makeServiceHarness, type ServiceHarness } from './harness';

describe('turn:steer', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('hands the message to the running turn, which sends it after the call\'s result; with no turn it says so', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('w1');
    const other = (await h.clientWithSession('w2')).client;
    h.server.enqueue(EDIT_GREETING, { text: 'Edited, and noted.' });

    expect(await client.value('turn:steer', { text: 'Too early.' })).toEqual({ steered: false, reason: NO_TURN_TO_STEER });
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    // Another window has no running turn: its message never reaches this one.
    expect(await other.value('turn:steer', { text: 'Not yours.' })).toEqual({ steered: false, reason: NO_TURN_TO_STEER });
    expect(await client.value('turn:steer', { text: '  Keep the old one in a comment.  ' })).toEqual({ steered: true });
    await client.value('approvals:answer', { requestId: request.requestId, approved: true });
    const { end } = await client.turnFinished();
    expect(end.status).toBe('completed');

    expect(client.turnEvents().filter((event) => event.type === 'steered_message')).toEqual([{ type: 'steered_message', text: 'Keep the old one in a comment.' }]);
    const input = h.server.requests[1]!.body.input as Array<{ type: string; role?: string; content?: unknown }>;
    expect(input.at(-2)?.type).toBe('function_call_output');
    expect(input.at(-1)).toMatchObject({ type: 'message', role: 'user', content: 'Keep the old one in a comment.' });
    expect(JSON.stringify(h.server.requests)).not.toContain('Not yours.');
    expect(await client.value('turn:steer', { text: 'After the end.' })).toEqual({ steered: false, reason: NO_TURN_TO_STEER });
  });

  it('refuses input that is not a message, as turn:send does', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('w1');
    expect(await client.call('turn:steer', { text: '   ' })).toEqual({ ok: false, error: expect.stringContaining('The message is empty') });
    expect(await client.call('turn:steer', { text: 'hi', sessionId: 'x' })).toMatchObject({ ok: false });
    expect(await client.call('turn:steer', 'hi')).toMatchObject({ ok: false });
  });
});
