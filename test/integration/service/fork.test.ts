// Edit and resend: a session continued from one of the person's earlier
// messages as a fork, through the real service. The fork is a new session whose
// log names its origin and holds the original's records before that message;
// the original's log is never touched and stays resumable.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import type { SessionSummary } from '../../../src/shared/domain';
import type { SessionChangesView, ReversalReportView } from '../../../src/shared/changes';
import type { SessionOpenResult, SessionView } from '../../../src/shared/sessions';
import { EDIT_GREETING, GREET, loosen, makeServiceHarness, type FakeClient, type ServiceHarness } from './harness';

const lines = async (file: string) => (await fs.readFile(file, 'utf8')).split('\n').filter(Boolean);

/** Two turns: the first edits greet.go (allowed by accept-edits), the second only answers. */
async function twoTurns(h: ServiceHarness): Promise<{ client: FakeClient; session: SessionView }> {
  const { client, session } = await h.clientWithSession('a');
  await loosen(client, 'accept-edits');
  h.server.enqueue(EDIT_GREETING, { text: 'Greeted.' });
  let from = client.received.length;
  await client.value('turn:send', { text: 'Change the greeting.' });
  await client.turnFinished(from);
  h.server.enqueue({ text: 'Loud now.' });
  from = client.received.length;
  await client.value('turn:send', { text: 'Make it loud.' });
  await client.turnFinished(from);
  return { client, session };
}

function here(result: SessionOpenResult): SessionView {
  if (result.where !== 'here') throw new Error(`expected the fork here, got ${result.where}`);
  return result.session;
}

describe('sessions:fork (Edit and resend)', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('opens a fork here holding the history before the message, names its origin, and leaves the original untouched', async () => {
    h = await makeServiceHarness();
    const { client, session } = await twoTurns(h);
    const originalBytes = await fs.readFile(sessionFile(h.home, session.id));

    const fork = here(await client.value<SessionOpenResult>('sessions:fork', { message: 1 }));
    expect(fork.id).not.toBe(session.id);
    expect(fork.past?.filter((event) => event.type === 'user_message')).toEqual([{ type: 'user_message', text: 'Change the greeting.' }]);
    expect(fork.past).toContainEqual({ type: 'assistant_text', text: 'Greeted.' });
    expect((await client.value<SessionView>('sessions:current')).id).toBe(fork.id);

    // The original's log is exactly as it was; the fork's header names it and the point, then the same records.
    expect((await fs.readFile(sessionFile(h.home, session.id))).equals(originalBytes)).toBe(true);
    const original = await lines(sessionFile(h.home, session.id));
    const forked = await lines(sessionFile(h.home, fork.id));
    const position = original.findIndex((line) => JSON.parse(line).type === 'user' && JSON.parse(line).text === 'Make it loud.');
    expect(JSON.parse(forked[0]!)).toMatchObject({ type: 'session', id: fork.id, projectDir: h.project, forkedFrom: { session: session.id, position } });
    expect(forked.slice(1)).toEqual(original.slice(1, position));

    // The sidebar names the origin.
    const listed = await client.value<SessionSummary[]>('sessions:list');
    expect(listed.find((summary) => summary.id === fork.id)?.forkedFrom).toEqual({ id: session.id, label: 'Change the greeting.' });
    expect(listed.find((summary) => summary.id === session.id)?.forkedFrom).toBeUndefined();

    // The edited message is the fork's next turn; the model sees the first turn, not the message it replaces.
    h.server.enqueue({ text: 'Quiet now.' });
    const from = client.received.length;
    await client.value('turn:send', { text: 'Make it quiet.' });
    await client.turnFinished(from);
    const sent = JSON.stringify(h.server.requests.at(-1)!.body.input);
    expect(sent).toContain('Change the greeting.');
    expect(sent).toContain('Make it quiet.');
    expect(sent).not.toContain('Make it loud.');

    // The original is still whole and resumable, in another window.
    expect((await fs.readFile(sessionFile(h.home, session.id))).equals(originalBytes)).toBe(true);
    const reopened = here(await h.connect('b').value<SessionOpenResult>('sessions:open', { id: session.id }));
    expect(reopened.past?.filter((event) => event.type === 'user_message').map((event) => event.type === 'user_message' && event.text)).toEqual([
      'Change the greeting.',
      'Make it loud.',
    ]);
  });

  it('lets the fork undo the turns it inherited, with the original\'s kept contents', async () => {
    h = await makeServiceHarness();
    const { client } = await twoTurns(h);
    here(await client.value<SessionOpenResult>('sessions:fork', { message: 1 }));
    const changes = await client.value<SessionChangesView>('changes:list');
    expect(changes.turns.map((turn) => [turn.turn, turn.files.map((file) => `${file.action} ${file.path}`)])).toEqual([[1, ['edited greet.go']]]);
    const report = await client.value<ReversalReportView>('changes:reverse', { action: 'undo', turn: 1 });
    expect(report.files).toEqual([{ path: 'greet.go', outcome: 'restored' }]);
    expect(await fs.readFile(h.file('greet.go'), 'utf8')).toBe(GREET);
  });

  it('refuses a message the window does not show, bad input, and a fork while a turn runs', async () => {
    h = await makeServiceHarness();
    const { client, session } = await twoTurns(h);
    expect(await client.call('sessions:fork', { message: 2 })).toEqual({
      ok: false,
      error: 'This session shows 2 messages of yours, so there is no message 3 to continue from. Reload the session and choose a message shown.',
    });
    expect(await client.call('sessions:fork', { message: -1 })).toMatchObject({ ok: false, error: expect.stringContaining('message') });
    expect(await client.call('sessions:fork', { message: 0, extra: true })).toMatchObject({ ok: false });
    expect(await h.connect('lonely').call('sessions:fork', { message: 0 })).toMatchObject({ ok: false, error: expect.stringContaining('This window has no session') });

    h.server.enqueue({ hangAfterDeltas: ['Thinking'] });
    const from = client.received.length;
    await client.value('turn:send', { text: 'Wait for me.' });
    expect(await client.call('sessions:fork', { message: 0 })).toMatchObject({ ok: false, error: expect.stringContaining('turn') });
    await client.value('turn:stop');
    await client.turnFinished(from);
    const listed = await client.value<SessionSummary[]>('sessions:list');
    expect(listed.map((summary) => summary.id)).toEqual([session.id]);
  });
});
