// Every handler's answer is what the contract declares: each channel is
// called once through a real MinoService (in an order that makes each call
// succeed), and each value must parse with its output schema without losing
// a field. The table is typed by the contract, so a new channel must be added here.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepContent } from '../../../src/main/core/checkpoints/preImageStore';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../src/shared/ipc';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

describe('handler outputs', () => {
  it('every channel answers with a value its declared output schema accepts unchanged', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    let sessionId = '';
    let linkId = '';
    const steps: { readonly [K in InvokeChannel]: () => unknown } = {
      'app:info': () => undefined,
      'settings:get': () => undefined,
      'settings:set': () => ({ model: 'another-model', contextWindow: 64_000 }),
      'apiKey:status': () => undefined,
      'apiKey:set': () => ({ apiKey: 'sk-output-check' }),
      'projects:pick': () => (h.picker.willPick(h.project), undefined),
      'projects:recent': () => undefined,
      'projects:openRecent': () => ({ path: h.project }),
      'projects:openDropped': () => ({ path: h.project }),
      'projects:current': () => undefined,
      'files:list': () => ({ path: '.' }),
      'files:find': () => ({ query: 'a' }),
      'mcp:status': () => undefined,
      'sessions:new': () => undefined,
      'sessions:current': () => undefined,
      'sessions:list': () => undefined,
      'skills:list': () => undefined,
      'skills:reload': () => undefined,
      'mode:set': () => ({ mode: 'bypass' }),
      // Long enough that the turn does not fit the kept share of the window, so compacting has something to summarize.
      'turn:send': () => (h.server.enqueue({ text: 'Hello.' }), { text: 'word '.repeat(20_000) }),
      'turn:stop': () => undefined,
      'approvals:answer': () => ({ requestId: randomUUID(), approved: false }),
      'context:compact': () => (h.server.enqueue({ text: 'The person asked for a long list of words.' }), undefined),
      'context:editSummary': () => ({ text: 'The person asked for words; nothing was changed.' }),
      'sessions:acknowledge': () => undefined,
      'sessions:clear': () => undefined,
      'sessions:open': () => ({ id: sessionId }),
      'sessions:rename': () => ({ id: sessionId, title: 'Greeting change' }),
      'links:check': () => ({ url: 'https://example.com/docs' }),
      'links:open': () => ({ id: linkId }),
      'changes:list': () => undefined,
      'changes:plan': () => ({ action: 'undo' }),
      'changes:reverse': () => ({ action: 'undo' }),
      'rules:add': () => ({ scope: 'project', text: 'deny bash git push' }),
      'rules:list': () => undefined,
      'rules:remove': () => ({ id: 'r1' }),
      'ledger:list': () => ({ decision: 'allow' }),
    };
    const answered: string[] = [];
    for (const [channel, input] of Object.entries(steps) as Array<[InvokeChannel, () => unknown]>) {
      // A turn must end before the session can be compacted or cleared.
      if (channel === 'context:compact') await client.turnFinished();
      // Something to undo: a file a tool created, recorded as a write records it.
      if (channel === 'changes:plan') await seedCreatedFile(h, sessionId);
      const result = await client.call(channel, input());
      expect(result, channel).toMatchObject({ ok: true });
      if (!result.ok) continue;
      const parsed = INVOKE_CHANNELS[channel].output.safeParse(result.value);
      expect(parsed.error?.issues ?? [], channel).toEqual([]);
      expect(parsed.data, `${channel} sent fields its schema does not declare`).toEqual(result.value);
      if (channel === 'sessions:new') sessionId = (result.value as { session: { id: string } }).session.id;
      if (channel === 'links:check') linkId = (result.value as { id: string }).id;
      answered.push(channel);
    }
    expect(answered.sort()).toEqual(Object.keys(INVOKE_CHANNELS).sort());
    expect(h.openedLinks).toEqual(['https://example.com/docs']);
  });
});

async function seedCreatedFile(h: ServiceHarness, sessionId: string): Promise<void> {
  const content = 'created\n';
  await fs.writeFile(path.join(h.project, 'created.txt'), content);
  const sha256 = await keepContent(h.home, sessionId, content);
  const record = { type: 'change', change_id: randomUUID(), call_id: 'seeded', path: 'created.txt', before: { kind: 'absent' }, after: { kind: 'file', sha256 }, at: new Date().toISOString() };
  await fs.appendFile(sessionFile(h.home, sessionId), `${JSON.stringify(record)}\n`);
}
