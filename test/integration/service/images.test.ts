// Images a window adds wait for its next message; a page that adds without
// sending is stopped at MAX_UNSENT_IMAGES, so it cannot fill the disk (and,
// through the storage cap, push out every session's undo history).
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { MAX_UNSENT_IMAGES } from '../../../src/main/service/features/images';
import { pngOfSize } from '../../support/images';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

describe('images a window adds', () => {
  it('are refused past the limit until the window sends a message; another window is not affected', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('w');
    const ids: string[] = [];
    for (let i = 0; i < MAX_UNSENT_IMAGES; i++) {
      const added = await client.value<{ sha256: string }>('images:add', { bytes: pngOfSize(100 + i) });
      ids.push(added.sha256);
    }
    const refused = await client.call('images:add', { bytes: pngOfSize(99) });
    expect(refused).toEqual({ ok: false, error: `This window has added ${MAX_UNSENT_IMAGES} images since its last message. Send your message, or close and reopen the window, before adding more.` });
    const other = h.connect('other');
    expect((await other.call('images:add', { bytes: pngOfSize(99) })).ok).toBe(true);

    h.server.enqueue({ text: 'Two images seen.' });
    await client.value('turn:send', { text: 'What do these show?', images: ids.slice(0, 2) });
    await client.turnFinished();
    expect((await client.call('images:add', { bytes: pngOfSize(99) })).ok).toBe(true);
  });

  it('with a message to a service set to take none are refused before the turn starts, so nothing is saved', async () => {
    h = await makeServiceHarness();
    const { client, session } = await h.clientWithSession('w');
    h.native.answer = true;
    await client.value('services:save', { service: { name: 'text-only', protocol: 'responses', baseUrl: h.server.baseURL, model: 'm', images: false } });
    await client.value('services:setKey', { name: 'text-only', apiKey: 'sk-text-only' });
    await client.value('session:setModel', { service: 'text-only', model: 'm' });
    const { sha256 } = await client.value<{ sha256: string }>('images:add', { bytes: pngOfSize(200) });
    const refused = await client.call('turn:send', { text: 'What is this?', images: [sha256] });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/^The model service "text-only" is set to take no images .*so your message was not sent\./);
    expect(h.server.requests.filter((request) => request.method === 'POST')).toEqual([]);
    expect(client.turnEvents()).toEqual([]);
    const log = await fs.readFile(sessionFile(h.home, session.id), 'utf8');
    expect(log).not.toContain('What is this?');
  });
});
