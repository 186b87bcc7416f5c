// Sessions per window through the real service: one owner per session, a
// second session opens in a new window, a saved session comes back as its
// past events, and unknown results must be acknowledged first.
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { minoPaths } from '../../../src/main/core/config/minoHome';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { clientId } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import type { SessionSummary } from '../../../src/shared/domain';
import type { SessionOpenResult, SessionView } from '../../../src/shared/sessions';
import { EDIT_GREETING, loosen, makeServiceHarness, type ServiceHarness } from './harness';

/** rchar: bytes this process has read through read(2) and the like, from any file. */
const bytesReadByThisProcess = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

describe('sessions through the service', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('refuses a new session before a project is open', async () => {
    h = await makeServiceHarness();
    expect(await h.connect('a').call('sessions:new')).toEqual({ ok: false, error: 'Open a project first.' });
  });

  it('makes the first session the window\'s own and opens a second one in a new window', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    expect(session).toMatchObject({ projectDir: h.project, busy: false, unknownCalls: [], past: [], loadProblems: [] });
    expect(await client.value('sessions:current')).toEqual(session);
    expect(h.contexts.at(-1)).toEqual({ client: client.id, context: { project: { path: h.project, name: 'project' }, session: { id: session.id, label: 'Untitled session' } } });

    const second = await client.value<SessionOpenResult>('sessions:new');
    expect(second).toEqual({ where: 'elsewhere', sessionId: expect.any(String) });
    if (second.where !== 'elsewhere') throw new Error('unreachable');
    expect(h.openedWindows).toEqual([second.sessionId]);
    expect((await client.value<SessionView>('sessions:current')).id).toBe(session.id);

    // The new window's renderer opens the session it was given, with the project taken from the session.
    const window2 = h.connect('b');
    expect(await window2.value('sessions:open', { id: second.sessionId })).toMatchObject({ where: 'here', session: { id: second.sessionId, projectDir: h.project } });
    expect(await window2.value('projects:current')).toEqual({ path: h.project, name: 'project' });
    const listed = await client.value<SessionSummary[]>('sessions:list');
    expect(listed.map((summary) => summary.id).sort()).toEqual([session.id, second.sessionId].sort());
  });

  it('focuses the window that has a session instead of opening it twice', async () => {
    h = await makeServiceHarness();
    const { client: owner, session } = await h.clientWithSession('a');
    const other = h.connect('b');
    expect(await other.value('sessions:open', { id: session.id })).toEqual({ where: 'elsewhere', sessionId: session.id });
    expect(h.focused).toEqual([owner.id]);
    expect(await other.value('sessions:current')).toBeNull();
    expect(await owner.value('sessions:open', { id: session.id })).toMatchObject({ where: 'here', session: { id: session.id } });
  });

  it('opens another saved session from a window that has one in a new window, but opens no window for a missing one', async () => {
    h = await makeServiceHarness();
    const { client: earlier, session: saved } = await h.clientWithSession('earlier');
    await h.service.detachClient(earlier.id);
    const { client } = await h.clientWithSession('a');
    expect(await client.call('sessions:open', { id: 'ffffffffffffffffffffffffffffffff' })).toMatchObject({ ok: false, error: expect.stringContaining('There is no saved session') });
    expect(h.openedWindows).toEqual([]);
    expect(await client.value('sessions:open', { id: saved.id })).toEqual({ where: 'elsewhere', sessionId: saved.id });
    expect(h.openedWindows).toEqual([saved.id]);
  });

  it('gives a clear error for a session that does not exist, and refuses one whose project is gone', async () => {
    h = await makeServiceHarness();
    const client = h.connect('a');
    const missing = await client.call('sessions:open', { id: '0123456789abcdef0123456789abcdef' });
    expect(missing).toEqual({ ok: false, error: expect.stringContaining('There is no saved session 0123456789abcdef0123456789abcdef') });

    const { client: owner, session } = await h.clientWithSession('owner');
    await h.service.detachClient(owner.id);
    await fs.rm(h.project, { recursive: true });
    const gone = await client.call('sessions:open', { id: session.id });
    expect(gone).toEqual({ ok: false, error: expect.stringContaining('does not exist') });
    expect(await client.value('sessions:current')).toBeNull();
    expect(await client.value('projects:current')).toBeNull();
  });

  it('replays a saved conversation as past events without running anything', async () => {
    h = await makeServiceHarness();
    h.server.enqueue(EDIT_GREETING, { text: 'Done.' });
    const { client, session } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Change the greeting.' });
    const request = await client.next('approval:request');
    await client.value('approvals:answer', { requestId: request.requestId, approved: true });
    await client.turnFinished();
    await h.service.detachClient(client.id);
    await fs.writeFile(h.file('greet.go'), 'changed since\n');
    const requestsBefore = h.server.requests.length;

    const reopened = await h.connect('b').value<SessionOpenResult>('sessions:open', { id: session.id });
    if (reopened.where !== 'here') throw new Error('expected here');
    expect(reopened.session.past).toEqual([
      { type: 'user_message', text: 'Change the greeting.' },
      { type: 'assistant_start', request: 1 },
      { type: 'tool_call', callId: 'call_edit', name: 'edit_file', arguments: expect.any(String), decision: null, mode: 'manual', tool: { kind: 'file_write', foldsOutput: false } },
      // What the dialog showed, as it was then (the file has changed since), and the answer.
      { type: 'tool_confirmation', callId: 'call_edit', name: 'edit_file', confirmation: request.confirmation, asked: true, mode: 'manual' },
      { type: 'approval', callId: 'call_edit', approved: true },
      { type: 'tool_result', callId: 'call_edit', name: 'edit_file', status: 'completed', output: expect.stringContaining('Edited greet.go') },
      { type: 'assistant_start', request: 2 },
      { type: 'assistant_text', text: 'Done.' },
      // The mock reports 10 input and 5 output tokens per response; the turn shows their sum.
      { type: 'turn_end', status: 'completed', usage: { inputTokens: 20, cachedInputTokens: 0, outputTokens: 10, reasoningTokens: 0 } },
    ]);
    expect(h.server.requests.length).toBe(requestsBefore);
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe('changed since\n');
  });

  it.runIf(existsSync('/proc/self/io'))('reads the saved log once when a window opens it', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    await h.service.detachClient(client.id);
    // A log large enough that every whole read of it shows in the bytes this process reads.
    const log = await SessionLog.openForAppend(h.home, session.id);
    await log.append({ type: 'user', text: 'x'.repeat(4 << 20) });
    await log.close();
    const size = (await fs.stat(log.file)).size;

    const before = bytesReadByThisProcess();
    const reopened = await h.connect('b').value<SessionOpenResult>('sessions:open', { id: session.id });
    const read = bytesReadByThisProcess() - before;
    if (reopened.where !== 'here') throw new Error('expected here');
    expect(reopened.session.past).toEqual([{ type: 'user_message', text: expect.stringMatching(/^x{4194304}$/) }]);
    expect(read).toBeGreaterThanOrEqual(size);
    expect(read).toBeLessThan(2 * size);
  });

  it('requires unknown results to be acknowledged before the next message', async () => {
    h = await makeServiceHarness();
    const log = await SessionLog.create(h.home, h.project);
    await log.append({ type: 'user', text: 'Run the build.' });
    await log.append({ type: 'response', responseId: 'r1', output: [{ type: 'function_call', call_id: 'call_build', name: 'bash', arguments: '{"command":"make"}' }] });
    await log.append({ type: 'tool_start', call_id: 'call_build', name: 'bash', arguments: '{"command":"make"}' });
    await log.close();

    const client = h.connect('a');
    const opened = await client.value<SessionOpenResult>('sessions:open', { id: log.id });
    if (opened.where !== 'here') throw new Error('expected here');
    expect(opened.session.unknownCalls).toEqual([{ callId: 'call_build', name: 'bash', arguments: '{"command":"make"}' }]);
    expect(opened.session.past?.at(-1)).toMatchObject({ type: 'tool_result', callId: 'call_build', status: 'unknown' });

    const refused = await client.call('turn:send', { text: 'Try again.' });
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/bash call_build.*acknowledge the unknown results/) });
    expect(h.server.requests).toEqual([]);

    const acknowledged = await client.value<SessionView>('sessions:acknowledge');
    expect(acknowledged.unknownCalls).toEqual([]);
    expect(client.of('session:changed').at(-1)).toMatchObject({ unknownCalls: [] });
    h.server.enqueue({ text: 'The build state is unknown; check it first.' });
    expect(await client.value('turn:send', { text: 'Try again.' })).toEqual({ started: true });
    expect((await client.turnFinished()).end.status).toBe('completed');
  });

  it('refuses a second message and a clear while a turn runs, and stop ends a streaming turn as aborted', async () => {
    h = await makeServiceHarness();
    h.server.enqueue({ hangAfterDeltas: ['Thinking', ' about', ' it'] });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Think.' });
    await client.nextTurnEvent('assistant_delta');

    expect(await client.call('turn:send', { text: 'Again.' })).toEqual({ ok: false, error: expect.stringContaining('A turn is already running') });
    expect(await client.call('sessions:clear')).toEqual({ ok: false, error: expect.stringContaining('A turn is already running') });
    expect(await client.value('turn:stop')).toEqual({ stopped: true });
    const { end, view } = await client.turnFinished();
    expect(end.status).toBe('aborted');
    expect(view.busy).toBe(false);
    const streamed = client.turnEvents().flatMap((event) => (event.type === 'assistant_delta' ? [event.delta] : [])).join('');
    expect('Thinking about it'.startsWith(streamed)).toBe(true);
    expect(await client.value('turn:stop')).toEqual({ stopped: false });
  });

  it('delivers a long streamed answer in order, in fewer messages than the model sent', async () => {
    h = await makeServiceHarness();
    const deltas = Array.from({ length: 2000 }, (_, index) => `${index} `);
    h.server.enqueue({ text: deltas.join(''), deltas });
    const { client } = await h.clientWithSession('a');
    await client.value('turn:send', { text: 'Count.' });
    await client.turnFinished();
    const streamed = client.turnEvents().filter((event) => event.type === 'assistant_delta');
    expect(streamed.map((event) => (event.type === 'assistant_delta' ? event.delta : '')).join('')).toBe(deltas.join(''));
    expect(streamed.length).toBeLessThan(deltas.length);
    const types = client.turnEvents().map((event) => event.type);
    expect(types.lastIndexOf('assistant_delta')).toBeLessThan(types.indexOf('assistant_text'));
  });

  it('closes a window\'s session when it opens a project elsewhere, and keeps it for the same project', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    h.picker.willPick(h.project);
    await client.value('projects:pick');
    expect(await client.value('sessions:current')).toMatchObject({ id: session.id });

    const elsewhere = `${h.root}/other`;
    await fs.mkdir(elsewhere);
    h.picker.willPick(elsewhere);
    await client.value('projects:pick');
    expect(await client.value('sessions:current')).toBeNull();
    expect(await h.connect('b').value('sessions:open', { id: session.id })).toMatchObject({ where: 'here' });
  });

  it('removes the new session\'s file when its window cannot be opened, so no empty session is left in the list', async () => {
    h = await makeServiceHarness(undefined, {
      openSessionWindow: () => {
        throw new Error('Mino could not open a new window. Close some windows and try again.');
      },
    });
    const { client, session } = await h.clientWithSession('a');
    expect(await client.call('sessions:new')).toEqual({ ok: false, error: 'Mino could not open a new window. Close some windows and try again.' });
    expect((await client.value<SessionSummary[]>('sessions:list')).map((summary) => summary.id)).toEqual([session.id]);
    expect(await fs.readdir(minoPaths(h.home).sessions)).toEqual([`${session.id}.jsonl`]);
  });

  it('leaves the session idle when telling its window about a new turn fails, so the next message is taken', async () => {
    h = await makeServiceHarness();
    const id = clientId('fragile');
    let failBusy = true;
    h.service.attachClient(id, (event, payload) => {
      if (event === 'session:changed' && (payload as SessionView).busy && failBusy) {
        failBusy = false;
        throw new Error('The window stopped listening.');
      }
    });
    const call = (channel: string, input?: unknown) => dispatchInvoke(h.service, id, channel, input);
    h.picker.willPick(h.project);
    await call('projects:pick');
    await call('sessions:new');

    expect(await call('turn:send', { text: 'First.' })).toEqual({ ok: false, error: expect.stringContaining('The window stopped listening') });
    expect(await call('sessions:current')).toMatchObject({ ok: true, value: { busy: false } });
    expect(h.server.requests).toEqual([]);
    h.server.enqueue({ text: 'Hello.' });
    expect(await call('turn:send', { text: 'Second.' })).toEqual({ ok: true, value: { started: true } });
    await h.service.detachClient(id);
  });

  it('sends state changes without the saved conversation, and names the window after the first question', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    await loosen(client, 'accept-edits');
    h.server.enqueue(EDIT_GREETING, { text: 'Done.' });
    const turnStart = client.received.length;
    await client.value('turn:send', { text: 'Change the greeting.' });
    await client.turnFinished(turnStart);

    const changes = client.of('session:changed');
    expect(changes.map((view) => [view.mode, view.busy])).toEqual([
      ['accept-edits', false],
      ['accept-edits', true],
      ['accept-edits', false],
    ]);
    for (const view of changes) expect(view).not.toHaveProperty('past');
    expect(h.contexts.at(-1)?.context.session).toEqual({ id: session.id, label: 'Change the greeting.' });
    // A window adopting the session still gets the whole conversation, the mode-allowed edit's record included.
    const past = (await client.value<SessionView>('sessions:current')).past;
    expect(past).toHaveLength(8);
    expect(past?.find((event) => event.type === 'tool_confirmation')).toMatchObject({ asked: false, mode: 'accept-edits' });
  });

  it('keeps a recent project in the list when it is refused only because a turn is running in this window', async () => {
    h = await makeServiceHarness();
    const other = `${h.root}/other`;
    await fs.mkdir(other);
    const { client } = await h.clientWithSession('a');
    h.picker.willPick(other);
    await client.value('projects:pick');
    h.picker.willPick(h.project);
    await client.value('projects:pick');
    await client.value('sessions:new');
    h.server.enqueue({ hangAfterDeltas: ['Thinking'] });
    await client.value('turn:send', { text: 'Think.' });
    await client.nextTurnEvent('assistant_delta');

    expect(await client.call('projects:openRecent', { path: other })).toEqual({ ok: false, error: expect.stringContaining('A turn is running in this window') });
    expect((await client.value<Array<{ path: string }>>('projects:recent')).map((project) => project.path)).toContain(other);
    await client.value('turn:stop');
    await client.turnFinished();
    expect(await client.value('projects:openRecent', { path: other })).toMatchObject({ opened: true });
  });
});
