// Compacting from the window: the service summarizes the session's earlier
// turns on request, saves the person's rewrite as their record, reports both
// as `compaction` events, and the session view carries the meter and the
// summary so a window that shows the session later has them.
import { afterEach, describe, expect, it } from 'vitest';
import type { CompactionEvent, SessionView } from '../../../src/shared/sessions';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

type Body = { input: Array<{ role?: string; content?: unknown }>; tools?: unknown[] };
const body = (index: number) => h.server.requests[index]!.body as Body;

describe('compaction from the window', () => {
  it('compacts on request, saves an edited summary as the person’s, and the next request carries the edited text', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await client.value('settings:set', { contextWindow: 18_000 });
    // One turn larger than the kept share of the window, so all of it is summarized, yet with the tools and
    // instructions within the window.
    h.server.enqueue({ text: 'Listed.', usage: { input_tokens: 11_800, output_tokens: 20 } });
    await client.value('turn:send', { text: `List these: ${'word '.repeat(6000)}` });
    const { end } = await client.turnFinished();
    expect(end.context).toMatchObject({ window: 18_000 });

    h.server.enqueue({ text: 'The person asked to list words; the list was given.' });
    const compacted = await client.value<CompactionEvent>('context:compact');
    expect(compacted).toMatchObject({ type: 'compaction', trigger: 'manual', author: 'model', summary: 'The person asked to list words; the list was given.' });
    expect(body(1).tools ?? []).toEqual([]);
    expect(client.turnEvents().at(-1)).toEqual(compacted);
    expect(client.of('session:changed').at(-1)).toMatchObject({ busy: false });

    const edited = await client.value<CompactionEvent>('context:editSummary', { text: '  EDITED: words were listed.  ' });
    expect(edited).toMatchObject({ trigger: 'edit', author: 'person', summary: 'EDITED: words were listed.' });

    const view = await client.value<SessionView>('sessions:current');
    expect(view.summary).toMatchObject({ text: 'EDITED: words were listed.', author: 'person' });
    expect(view.context?.window).toBe(18_000);
    expect(view.context?.used).toBeGreaterThan(0);
    expect(view.context!.used).toBeLessThan(end.context!.used);

    h.server.enqueue({ text: 'Next.' });
    await client.value('turn:send', { text: 'And now?' });
    await client.turnFinished(client.received.length);
    const sent = JSON.stringify(body(2).input);
    expect(sent).toContain('EDITED: words were listed.');
    expect(sent).not.toContain('word word');
  });

  it('refuses with a reason when there is nothing to compact or no summary to edit, and changes nothing', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    expect(await client.call('context:compact')).toEqual({ ok: false, error: expect.stringMatching(/nothing to compact/) });
    expect(await client.call('context:editSummary', { text: 'Anything.' })).toEqual({ ok: false, error: expect.stringMatching(/no summary to edit: compact it first/) });
    expect(await client.call('context:editSummary', { text: '   ' })).toEqual({ ok: false, error: expect.stringMatching(/summary is empty/) });
    expect(h.server.requests).toEqual([]);
    expect((await client.value<SessionView>('sessions:current')).summary).toBeNull();
  });

  it('holds the session busy while compacting, so a message waits, and Stop ends it with the session unchanged', async () => {
    h = await makeServiceHarness();
    const { client } = await h.clientWithSession('a');
    await client.value('settings:set', { contextWindow: 18_000 });
    h.server.enqueue({ text: 'Listed.' });
    await client.value('turn:send', { text: `List these: ${'word '.repeat(6000)}` });
    await client.turnFinished();

    h.server.enqueue({ hangAfterDeltas: ['The person'] });
    const from = client.received.length;
    const compacting = client.call('context:compact');
    await client.next('session:changed', (view) => view.busy, from);
    expect(await client.call('turn:send', { text: 'Meanwhile?' })).toEqual({ ok: false, error: expect.stringMatching(/turn is (already )?running|in progress/i) });
    expect(await client.value('turn:stop')).toEqual({ stopped: true });
    expect(await compacting).toEqual({ ok: false, error: expect.stringMatching(/Compaction was stopped/) });
    expect(client.of('session:changed').at(-1)).toMatchObject({ busy: false });
    expect((await client.value<SessionView>('sessions:current')).summary).toBeNull();
  });
});

