// Permission modes per session, in memory per service: confirmation to
// loosen, immediate tightening, independence between windows, and a restart
// back to manual.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MODE_WARNINGS, NO_SESSION_MESSAGE } from '../../../src/main/core/policy/modes';
import { minoPaths } from '../../../src/main/core/config/minoHome';
import { makeServiceHarness, type ServiceHarness } from './harness';
import type { SessionView } from '../../../src/shared/sessions';

describe('permission modes through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('starts a new session in manual', async () => {
    h = await makeServiceHarness();
    const { session } = await h.clientWithSession('a');
    expect(session.mode).toBe('manual');
  });

  it('asks before loosening, keeps manual when not confirmed, and changes once confirmed', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    const asked = await client.value('mode:set', { mode: 'accept-edits' });
    expect(asked).toEqual({ status: 'needs_confirmation', mode: 'manual', message: expect.any(String), warning: MODE_WARNINGS['accept-edits'] });
    // The person cancels: nothing more is sent, and the session stays manual.
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
    expect(client.of('session:changed')).toEqual([]);

    expect(await client.value('mode:set', { mode: 'accept-edits', confirmed: true })).toMatchObject({ status: 'changed', mode: 'accept-edits' });
    expect(client.of('session:changed').at(-1)).toMatchObject({ mode: 'accept-edits' });
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'accept-edits' });
  });

  it('tightens at once without asking', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await client.value('mode:set', { mode: 'bypass', confirmed: true });
    expect(await client.value('mode:set', { mode: 'manual' })).toMatchObject({ status: 'changed', mode: 'manual' });
    expect(await client.value('mode:set', { mode: 'manual' })).toMatchObject({ status: 'unchanged', mode: 'manual' });
  });

  it('refuses an unknown mode with the policy message and keeps the mode', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    const result = await client.value('mode:set', { mode: 'yolo', confirmed: true });
    expect(result).toEqual({ status: 'error', mode: 'manual', message: expect.stringContaining('Unknown permission mode "yolo"') });
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
  });

  it('refuses a mode change in a window without a session', async () => {
    h = await makeServiceHarness();
    const client = h.connect('a');
    expect(await client.call('mode:set', { mode: 'bypass', confirmed: true })).toEqual({ ok: false, error: NO_SESSION_MESSAGE });
  });

  it('keeps modes and approvals of two windows apart', async () => {
    h = await makeServiceHarness({ 'a.txt': 'one\n', 'b.txt': 'one\n' });
    const { client: a } = await h.clientWithSession('a');
    const { client: b } = await h.clientWithSession('b');
    await a.value('mode:set', { mode: 'accept-edits', confirmed: true });
    expect(await b.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });

    h.server.enqueue({ calls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'two' }, call_id: 'ca' }] }, { text: 'Done.' });
    await a.value('turn:send', { text: 'Edit a.txt.' });
    await a.turnFinished();
    expect(await fs.readFile(h.file('a.txt'), 'utf8')).toBe('two\n');
    expect(a.of('approval:request')).toEqual([]);

    h.server.enqueue({ calls: [{ name: 'edit_file', arguments: { path: 'b.txt', old_string: 'one', new_string: 'two' }, call_id: 'cb' }] }, { text: 'Done.' });
    await b.value('turn:send', { text: 'Edit b.txt.' });
    const request = await b.next('approval:request');
    expect(request.callId).toBe('cb');
    expect(a.of('approval:request')).toEqual([]);
    expect(await a.value('approvals:answer', { requestId: request.requestId, approved: true })).toEqual({ accepted: false });
    await b.value('approvals:answer', { requestId: request.requestId, approved: false });
    await b.turnFinished();
    expect(await fs.readFile(h.file('b.txt'), 'utf8')).toBe('one\n');
  });

  it('restores a reopened session\'s mode in the same run, and a restart is manual', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    await client.value('mode:set', { mode: 'bypass', confirmed: true });
    await h.service.detachClient(client.id);

    const again = h.connect('b');
    expect(await again.value('sessions:open', { id: session.id })).toMatchObject({ where: 'here', session: { mode: 'bypass' } });

    const restarted = h.restart();
    const fresh = h.connect('c', restarted);
    await h.service.detachClient(again.id);
    expect(await fresh.value('sessions:open', { id: session.id })).toMatchObject({ where: 'here', session: { mode: 'manual' } });
    // Never written anywhere: the session log does not mention it.
    expect(await fs.readFile(`${minoPaths(h.home).sessions}/${session.id}.jsonl`, 'utf8')).not.toContain('bypass');
  });

  it('keeps the mode when the session is cleared', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await client.value('mode:set', { mode: 'accept-edits', confirmed: true });
    expect(await client.value('sessions:clear')).toMatchObject({ mode: 'accept-edits', past: [] });
  });

  it('lets a running turn keep the mode it started with; the change applies from the next message', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await client.value('mode:set', { mode: 'accept-edits', confirmed: true });
    h.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'true' }, call_id: 'c_bash' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'c_edit' }] },
      { text: 'Done.' },
    );
    await client.value('turn:send', { text: 'Check, then edit.' });
    const bashAsk = await client.next('approval:request');
    const during = await client.value('mode:set', { mode: 'manual' });
    expect(during).toMatchObject({ status: 'changed', mode: 'manual', message: expect.stringContaining('The running turn keeps accept-edits') });
    await client.value('approvals:answer', { requestId: bashAsk.requestId, approved: true });
    await client.turnFinished();

    // The edit was allowed by the turn's accept-edits, not asked under the new manual.
    expect(client.of('approval:request')).toHaveLength(1);
    expect(client.turnEvents().find((event) => event.type === 'tool_call' && event.callId === 'c_edit')).toMatchObject({ decision: 'allow', mode: 'accept-edits' });
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toContain('"hello"');

    h.server.enqueue({ calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hello"', new_string: '"hey"' }, call_id: 'c_next' }] }, { text: 'Ok.' });
    const nextTurn = client.received.length;
    await client.value('turn:send', { text: 'Edit again.' });
    expect(await client.next('approval:request', (request) => request.callId === 'c_next')).toMatchObject({ toolName: 'edit_file' });
    await client.value('turn:stop');
    await client.turnFinished(nextTurn);
  });
});
