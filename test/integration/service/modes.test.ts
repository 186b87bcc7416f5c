// Permission modes per session, in memory per service: a loosening waits for
// the person's yes in main's own dialog (faked at that edge), tightening is
// immediate even inside a running turn, windows are independent, and a
// restart is back to manual.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MODE_WARNINGS, NO_SESSION_MESSAGE } from '../../../src/main/core/policy/modes';
import { minoPaths } from '../../../src/main/core/config/minoHome';
import { SANDBOX_TURNED_OFF } from '../../../src/main/core/agent/defaultDeps';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { loosen, makeServiceHarness, type ServiceHarness } from './harness';
import type { SessionView } from '../../../src/shared/sessions';

const sandboxed = (await sandboxAvailability()).available;

/** The bash command waits for this file in the project, so a test decides when the call ends. */
const WAIT_FOR_RELEASE = 'while [ ! -e release ]; do sleep 0.05; done';

describe('permission modes through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('starts a new session in manual', async () => {
    h = await makeServiceHarness();
    const { session } = await h.clientWithSession('a');
    expect(session.mode).toBe('manual');
  });

  it('asks in main before loosening, keeps manual on Cancel, and changes after the yes', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    const cancelled = await client.value('mode:set', { mode: 'accept-edits' });
    expect(cancelled).toEqual({ status: 'unchanged', mode: 'manual', message: expect.stringContaining('You did not confirm accept-edits mode.') });
    expect(h.native.questions).toEqual([expect.objectContaining({ detail: expect.stringContaining(MODE_WARNINGS['accept-edits']) })]);
    expect(h.native.clients).toEqual([client.id]);
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
    expect(client.of('session:changed')).toEqual([]);

    h.native.answer = true;
    const confirmed = await client.value('mode:set', { mode: 'accept-edits' });
    expect(confirmed).toMatchObject({ status: 'changed', mode: 'accept-edits' });
    expect(client.of('session:changed').at(-1)).toMatchObject({ mode: 'accept-edits' });
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'accept-edits' });
  });

  it('offers auto only while the sandbox is on: refused with the reason, before any question, once it is turned off', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await fs.writeFile(minoPaths(h.home).config, '{ "bashSandbox": false }\n');
    const refused = await client.value('mode:set', { mode: 'auto' });
    expect(refused).toEqual({
      status: 'error',
      mode: 'manual',
      message: `auto mode runs Bash commands without asking only in the sandbox, and no sandbox is available: ${SANDBOX_TURNED_OFF}. Permission mode for this session unchanged: manual.`,
    });
    expect(h.native.questions).toEqual([]);
  });

  it.skipIf(!sandboxed)('offers auto again, confirmed in main, once the sandbox is turned back on', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await fs.writeFile(minoPaths(h.home).config, '{ "bashSandbox": false }\n');
    expect(await client.value('mode:set', { mode: 'auto' })).toMatchObject({ status: 'error' });
    await fs.writeFile(minoPaths(h.home).config, '{}\n');
    h.native.answer = true;
    expect(await client.value('mode:set', { mode: 'auto' })).toMatchObject({ status: 'changed', mode: 'auto' });
    expect(h.native.questions).toEqual([expect.objectContaining({ detail: expect.stringContaining(MODE_WARNINGS.auto) })]);
  });

  it('refuses a window that says it confirmed, or brings an old-style confirmation id: the contract has neither', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    h.native.answer = true;
    for (const mode of ['bypass', 'accept-edits']) {
      expect(await client.call('mode:set', { mode, confirmed: true })).toEqual({ ok: false, error: expect.stringContaining('confirmed') });
      expect(await client.call('mode:set', { mode, confirmationId: '7d3c8d9e-0000-4000-8000-000000000000' })).toEqual({
        ok: false,
        error: expect.stringContaining('confirmationId'),
      });
    }
    expect(h.native.questions).toEqual([]);
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
  });

  it('asks over the window that asked, for its own session only', async () => {
    h = await makeServiceHarness();
    const { client: a } = await h.clientWithSession('a');
    const { client: b } = await h.clientWithSession('b');
    h.native.answer = true;
    expect(await b.value('mode:set', { mode: 'bypass' })).toMatchObject({ status: 'changed', mode: 'bypass' });
    expect(h.native.clients).toEqual([b.id]);
    expect(await a.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
  });

  it('tightens at once without asking', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await loosen(client, 'bypass');
    expect(await client.value('mode:set', { mode: 'manual' })).toMatchObject({ status: 'changed', mode: 'manual' });
    expect(await client.value('mode:set', { mode: 'manual' })).toMatchObject({ status: 'unchanged', mode: 'manual' });
  });

  it('refuses an unknown mode with the policy message and keeps the mode', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    const result = await client.value('mode:set', { mode: 'yolo' });
    expect(result).toEqual({ status: 'error', mode: 'manual', message: expect.stringContaining('Unknown permission mode "yolo"') });
    expect(await client.value<SessionView>('sessions:current')).toMatchObject({ mode: 'manual' });
  });

  it('refuses a mode change in a window without a session', async () => {
    h = await makeServiceHarness();
    const client = h.connect('a');
    expect(await client.call('mode:set', { mode: 'bypass' })).toEqual({ ok: false, error: NO_SESSION_MESSAGE });
  });

  it('keeps modes and approvals of two windows apart', async () => {
    h = await makeServiceHarness({ 'a.txt': 'one\n', 'b.txt': 'one\n' });
    const { client: a } = await h.clientWithSession('a');
    const { client: b } = await h.clientWithSession('b');
    await loosen(a, 'accept-edits');
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
    await loosen(client, 'bypass');
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
    await loosen(client, 'accept-edits');
    expect(await client.value('sessions:clear')).toMatchObject({ mode: 'accept-edits', past: [] });
  });

  it('applies a tightening inside a running turn from its next tool call', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await loosen(client, 'bypass');
    h.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: WAIT_FOR_RELEASE }, call_id: 'c_first' }] },
      { calls: [{ name: 'bash', arguments: { command: 'true' }, call_id: 'c_second' }] },
      { text: 'Done.' },
    );
    await client.value('turn:send', { text: 'Run two commands.' });
    // The first call runs under bypass and waits; the person tightens before the next one.
    await client.next('session:event', (payload) => payload.event.type === 'tool_confirmation' && payload.event.callId === 'c_first');
    const during = await client.value('mode:set', { mode: 'manual' });
    expect(during).toMatchObject({ status: 'changed', mode: 'manual', message: expect.stringContaining('The running turn uses it from its next tool call') });
    await fs.writeFile(h.file('release'), '');

    const ask = await client.next('approval:request');
    expect(ask.callId).toBe('c_second');
    await client.value('approvals:answer', { requestId: ask.requestId, approved: false });
    await client.turnFinished();
    expect(client.turnEvents().filter((event) => event.type === 'tool_call')).toEqual([
      expect.objectContaining({ callId: 'c_first', decision: 'allow', mode: 'bypass' }),
      expect.objectContaining({ callId: 'c_second', decision: 'ask', mode: 'manual' }),
    ]);
  });

  it('keeps a tightening for the rest of the turn even when the mode is loosened again before the next call', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await loosen(client, 'bypass');
    h.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: WAIT_FOR_RELEASE }, call_id: 'c_first' }] },
      { calls: [{ name: 'bash', arguments: { command: 'true' }, call_id: 'c_second' }] },
      { text: 'Done.' },
    );
    await client.value('turn:send', { text: 'Run two commands.' });
    await client.next('session:event', (payload) => payload.event.type === 'tool_confirmation' && payload.event.callId === 'c_first');
    await client.value('mode:set', { mode: 'manual' });
    const back = await loosen(client, 'bypass');
    expect(back.message).toContain('The running turn stays in manual until it ends; bypass applies from your next message.');
    await fs.writeFile(h.file('release'), '');

    const ask = await client.next('approval:request');
    expect(ask.callId).toBe('c_second');
    await client.value('approvals:answer', { requestId: ask.requestId, approved: false });
    await client.turnFinished();
  });

  it('keeps a running turn at its starting mode when the mode is loosened; the looser mode applies from the next message', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    h.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'true' }, call_id: 'c_bash' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'c_edit' }] },
      { text: 'Done.' },
    );
    await client.value('turn:send', { text: 'Check, then edit.' });
    const bashAsk = await client.next('approval:request');
    const during = await loosen(client, 'accept-edits');
    expect(during.message).toContain('The running turn stays in manual until it ends; accept-edits applies from your next message.');
    await client.value('approvals:answer', { requestId: bashAsk.requestId, approved: true });

    // The edit is still asked under the turn's manual, not allowed under the new accept-edits.
    const editAsk = await client.next('approval:request', (request) => request.callId === 'c_edit');
    await client.value('approvals:answer', { requestId: editAsk.requestId, approved: false });
    await client.turnFinished();
    expect(client.turnEvents().find((event) => event.type === 'tool_call' && event.callId === 'c_edit')).toMatchObject({ decision: 'ask', mode: 'manual' });
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toContain('"hi"');

    h.server.enqueue({ calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hey"' }, call_id: 'c_next' }] }, { text: 'Ok.' });
    const nextTurn = client.received.length;
    await client.value('turn:send', { text: 'Edit again.' });
    await client.turnFinished(nextTurn);
    expect(client.of('approval:request')).toHaveLength(2);
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toContain('"hey"');
  });
});
