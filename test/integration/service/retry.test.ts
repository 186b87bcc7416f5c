// Retry after a failed turn: the turn runs again for the message it saved,
// which stays one record in the log, one message in what the model reads and
// one in the window's events; what cannot be retried is refused, saying why.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

async function recordsOf(home: string, sessionId: string, type: string): Promise<unknown[]> {
  const text = await fs.readFile(sessionFile(home, sessionId), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string })
    .filter((record) => record.type === type);
}

/** The person's messages a model request carried. */
function userMessages(body: { input?: Array<{ role?: string; content?: unknown }> }): string[] {
  return (body.input ?? []).filter((item) => item.role === 'user').map((item) => JSON.stringify(item.content));
}

describe('retrying a failed turn', () => {
  it('runs the failed turn again without saving, showing or sending its message a second time', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    h.server.enqueue({ fail: 'error', message: 'The service is overloaded.' });
    await client.value('turn:send', { text: 'Summarize the notes.' });
    expect((await client.turnFinished()).end.status).toBe('failed');

    const from = client.received.length;
    h.server.enqueue({ text: 'The notes are short.' });
    expect(await client.value('turn:retry')).toEqual({ started: true });
    const { end } = await client.turnFinished(from);
    expect(end.status).toBe('completed');

    const retried = h.server.requests.at(-1)!.body as Parameters<typeof userMessages>[0];
    expect(userMessages(retried)).toHaveLength(1);
    expect(userMessages(retried)[0]).toContain('Summarize the notes.');
    expect(await recordsOf(h.home, session.id, 'user')).toHaveLength(1);
    expect(client.turnEvents().filter((event) => event.type === 'user_message')).toHaveLength(1);
    // The session read back holds it once too.
    const reopened = await client.value<{ past?: Array<{ type: string }> }>('sessions:current');
    expect(reopened.past?.filter((event) => event.type === 'user_message')).toHaveLength(1);
  });

  it('refuses when no turn failed, and when the message was refused before anything was saved', async () => {
    h = await makeServiceHarness({}, { apiKeyInEnv: false });
    const { client } = await h.clientWithSession('a');
    expect(await client.call('turn:retry')).toEqual({ ok: false, error: expect.stringContaining('Nothing to retry: the last turn of this session did not fail.') });
    // Without a model service the message is refused at once: nothing was saved, so there is nothing to run again.
    expect(await client.call('turn:send', { text: 'Hello?' })).toMatchObject({ ok: false });
    expect(await client.call('turn:retry')).toEqual({ ok: false, error: expect.stringContaining('Nothing to retry') });
    expect(h.server.requests).toEqual([]);
  });

  it('is refused once a later turn completed', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    h.server.enqueue({ fail: 'error', message: 'The service is overloaded.' }, { text: 'Fine now.' });
    await client.value('turn:send', { text: 'First.' });
    await client.turnFinished();
    const from = client.received.length;
    await client.value('turn:send', { text: 'Second.' });
    expect((await client.turnFinished(from)).end.status).toBe('completed');
    expect(await client.call('turn:retry')).toEqual({ ok: false, error: expect.stringContaining('Nothing to retry') });
  });
});
