// Renaming a session through the real service: the title is checked (trimmed,
// not empty, at most 80 characters, on one line), kept in the session's log so
// it survives a reopen, follows the window that has it open, and is refused
// while another process writes the session.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { listSessions } from '../../../src/main/core/sessions/list';
import type { SessionSummary } from '../../../src/shared/domain';
import type { SessionView } from '../../../src/shared/sessions';
import { tsxArgs } from '../../support/tsxChild';
import { makeServiceHarness, type ServiceHarness } from './harness';

describe('renaming a session', () => {
  let h: ServiceHarness;
  afterEach(async () => h?.cleanup());

  it('refuses a title that is empty, too long, or holds control characters, saying why, and keeps the old one', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    const refused: Array<[unknown, RegExp]> = [
      ['   ', /The session title is empty: type a name for the session\./],
      ['x'.repeat(81), /longer than 80 characters: shorten it\./],
      ['first line\nsecond line', /cannot contain line breaks, tabs or other control characters/],
      ['tab\there', /control characters/],
      ['evil\u202Etxt.exe', /control characters/],
      [42, /The session title must be text\./],
    ];
    for (const [title, message] of refused) {
      const result = await client.call('sessions:rename', { id: session.id, title });
      expect(result.ok, String(title)).toBe(false);
      if (!result.ok) expect(result.error).toMatch(message);
    }
    expect((await listSessions(h.home, h.project)).map((summary) => summary.title)).toEqual([null]);
    expect(await client.call('sessions:rename', { id: 'not-an-id', title: 'Fine' })).toMatchObject({ ok: false });
  });

  it('saves a trimmed title in the log: the list, the open window, its title and a reopen all show it', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('a');
    const renamed = await client.value<SessionSummary>('sessions:rename', { id: session.id, title: '  Greeting fix  ' });
    expect(renamed).toMatchObject({ id: session.id, title: 'Greeting fix' });
    expect((await client.value<SessionSummary[]>('sessions:list')).map((summary) => summary.title)).toEqual(['Greeting fix']);
    const changed = await client.next('session:changed', (view) => view.title === 'Greeting fix');
    expect(changed.id).toBe(session.id);
    expect(h.contexts.at(-1)?.context.session).toEqual({ id: session.id, label: 'Greeting fix' });

    // Closed and opened again (by a new window): the title came from the log.
    await h.service.detachClient(client.id);
    const reopened = h.connect('b');
    await reopened.value('projects:openRecent', { path: h.project });
    const result = await reopened.value<{ where: string; session: SessionView }>('sessions:open', { id: session.id });
    expect(result.session.title).toBe('Greeting fix');
  });

  it('names an untitled session by its first question from the moment the turn starts, not only when it ends', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    const from = client.received.length;
    // An answer that waits, so the turn is still running while the window is told it is busy.
    h.server.enqueue({ hangAfterDeltas: ['Looking'] });
    await client.value('turn:send', { text: 'Change the greeting in greet.go' });
    const busy = await client.next('session:changed', (view) => view.busy, from);
    expect(busy.title).toBe('Change the greeting in greet.go');
    expect(h.contexts.at(-1)?.context.session?.label).toBe('Change the greeting in greet.go');
    expect(await client.value('turn:stop')).toEqual({ stopped: true });
    await client.turnFinished(from);
  });

  it('renames a saved session no window has open, and refuses one another process is writing', async () => {
    h = await makeServiceHarness();
    const log = await SessionLog.create(h.home, h.project);
    await log.append({ type: 'user', text: 'Add a README' });
    await log.close();
    const { client } = await h.clientWithSession('a');
    expect(await client.value('sessions:rename', { id: log.id, title: 'Docs' })).toMatchObject({ id: log.id, title: 'Docs', firstPrompt: 'Add a README' });
    expect((await listSessions(h.home, h.project)).find((summary) => summary.id === log.id)?.title).toBe('Docs');

    const holder = spawn(process.execPath, tsxArgs(path.resolve(__dirname, '../../support/sessionLockHolder.ts'), h.home, log.id), { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      const result = await client.call('sessions:rename', { id: log.id, title: 'Later' });
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/is open for writing elsewhere \(CLI, process \d+/) });
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.on('close', resolve));
    }
    expect((await listSessions(h.home, h.project)).find((summary) => summary.id === log.id)?.title).toBe('Docs');
  }, 60_000);

  it('refuses a session of another project', async () => {
    h = await makeServiceHarness();
    const elsewhere = await SessionLog.create(h.home, h.home);
    await elsewhere.close();
    const { client } = await h.clientWithSession('a');
    expect(await client.call('sessions:rename', { id: elsewhere.id, title: 'Mine now' })).toMatchObject({ ok: false, error: expect.stringMatching(/no saved session .* in this project/) });
  });
});
