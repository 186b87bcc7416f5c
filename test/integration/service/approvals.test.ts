// The approval broker through the real service: asks reach the owning window
// only, only its answer counts, and everything else is a denial.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/main/core/sessions/load';
import { outputsIn } from '../../support/agentFixture';
import { EDIT_GREETING, GREET, makeServiceHarness, type ServiceHarness } from './harness';

const HELLO = 'package main\n\nconst greeting = "hello"\n';

describe('approvals through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('applies the greet.go edit when the owning window approves, reporting the turn in order', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'I changed the greeting to "hello".' });
    const { client, session } = await h.clientWithSession('a');
    const from = client.received.length;

    expect(await client.value('turn:send', { text: 'Change the greeting in greet.go to "hello".' })).toEqual({ started: true });
    const request = await client.next('approval:request');
    expect(request).toMatchObject({ sessionId: session.id, callId: 'call_edit', toolName: 'edit_file' });
    expect(request.confirmation.fields).toEqual(expect.arrayContaining([{ label: 'Path', value: 'greet.go' }, { label: 'Insert', value: '"hello"' }]));
    expect(h.notifications).toEqual([{ client: client.id, sessionId: session.id, toolName: 'edit_file' }]);

    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: true });
    const { end, view } = await client.turnFinished(from);
    expect(end.status).toBe('completed');
    expect(view.busy).toBe(false);
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(HELLO);

    // busy first, then the turn's events, then idle; every turn event names the session.
    const after = client.received.slice(from);
    expect(after[0]).toMatchObject({ event: 'session:changed', payload: { busy: true } });
    expect(after.at(-1)).toMatchObject({ event: 'session:changed', payload: { busy: false } });
    expect(client.of('session:event').every((payload) => payload.sessionId === session.id)).toBe(true);
    const types = client.turnEvents().map((event) => event.type).filter((type) => type !== 'assistant_delta');
    expect(types).toEqual([
      'user_message', 'assistant_start', 'tool_call', 'tool_confirmation', 'approval', 'tool_result',
      'assistant_start', 'assistant_text', 'turn_end',
    ]);
    expect(client.turnEvents().find((event) => event.type === 'approval')).toEqual({ type: 'approval', callId: 'call_edit', approved: true });
  });

  it('leaves the file unchanged when the window denies, and the model receives denied', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Understood, I left it.' });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: false })).toEqual({ accepted: true });
    expect((await client.turnFinished()).end.status).toBe('completed');

    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
    expect(outputsIn(h.server.requests.at(-1)!.body)).toEqual([expect.objectContaining({ call_id: 'call_edit', status: 'denied' })]);
  });

  it('accepts no answer from another window, for an unknown request, or a second time', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Done.' });
    const { client: owner } = await h.clientWithSession('owner');
    const { client: other } = await h.clientWithSession('other');
    await owner.value('turn:send', { text: 'Change the greeting.' });
    const request = await owner.next('approval:request');
    expect(other.of('approval:request')).toEqual([]);

    expect(await other.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: false });
    expect(await owner.value('approvals:answer', { requestId: '00000000-0000-4000-8000-000000000000', approved: true })).toEqual({ accepted: false });
    // The ask is still pending for its owner: the other window's yes changed nothing.
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
    expect(await owner.value('approvals:answer', { requestId: request.requestId, approved: false })).toEqual({ accepted: true });
    expect(await owner.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: false });
    await owner.turnFinished();
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
  });

  it('denies the pending ask of a window that closes, ends its turn and closes its session', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'never requested' });
    const { client, session } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    await client.next('approval:request');

    await h.service.detachClient(client.id);

    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
    const saved = await loadSession(h.home, session.id, () => ({ ok: true }));
    const tail = saved.records.slice(-2);
    expect(tail).toEqual([
      expect.objectContaining({ type: 'tool_result', call_id: 'call_edit', status: 'denied' }),
      expect.objectContaining({ type: 'turn_end', status: 'aborted' }),
    ]);
    // Nothing more went to the model after the window left.
    expect(h.server.pending()).toBe(1);
    // The session is free again: another window can open it.
    const next = h.connect('b');
    expect(await next.value('sessions:open', { id: session.id })).toMatchObject({ where: 'here', session: { busy: false } });
  });

  it('closes the dialog and denies when the turn is stopped during an ask', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING);
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    expect(await client.value('turn:stop')).toEqual({ stopped: true });
    expect(await client.next('approval:closed')).toEqual({ requestId: request.requestId, reason: expect.stringContaining('stopped') });
    const { end } = await client.turnFinished();
    expect(end.status).toBe('aborted');
    expect(client.turnEvents().find((event) => event.type === 'tool_result')).toMatchObject({ callId: 'call_edit', status: 'denied' });
    expect(await client.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: false });
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
  });
});
