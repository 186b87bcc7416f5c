// Every handler's answer is what the contract declares: each channel is
// called once through a real MinoService (in an order that makes each call
// succeed), and each value must parse with its output schema without losing
// a field. The table is typed by the contract, so a new channel must be added here.
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepContent } from '../../../src/main/core/checkpoints/preImageStore';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../src/shared/ipc';
import { makeServiceHarness, type ServiceHarness } from './harness';
import { PNG_1X1 } from '../../support/images';

let h: ServiceHarness;
afterEach(async () => h?.cleanup());

describe('handler outputs', () => {
  it('every channel answers with a value its declared output schema accepts unchanged', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    let sessionId = '';
    let linkId = '';
    const caseFile = path.join(h.root, 'cases.yaml');
    await fs.writeFile(caseFile, 'cases:\n  - name: greet\n    project: { files: { a.txt: "a" } }\n    prompt: Say hi\n    script: [{ text: hi }]\n    expect: { final_answer_matches: hi }\n');
    const steps: { readonly [K in InvokeChannel]: () => unknown } = {
      'app:info': () => undefined,
      'settings:get': () => undefined,
      'settings:set': () => ({ model: 'another-model', contextWindow: 64_000 }),
      'apiKey:status': () => undefined,
      'apiKey:set': () => ({ apiKey: 'sk-output-check' }),
      'services:list': () => undefined,
      'services:save': () => ({ service: { name: 'local', protocol: 'chat', baseUrl: 'http://127.0.0.1:9/v1', model: 'local-model' } }),
      'services:setKey': () => ({ name: 'local', apiKey: 'sk-local-check' }),
      'services:deleteKey': () => ({ name: 'local' }),
      'services:test': () => ({ name: 'local' }),
      'services:models': () => ({ name: 'local' }),
      'services:remove': () => ({ name: 'local' }),
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
      'session:model': () => undefined,
      'session:setModel': () => ({ service: 'default', model: 'mock-model' }),
      'sessions:list': () => undefined,
      'skills:list': () => undefined,
      'skills:reload': () => undefined,
      'mode:set': () => ({ mode: 'bypass' }),
      // Long enough that the turn does not fit the kept share of the window, so compacting has something to summarize.
      'turn:send': () => (h.server.enqueue({ text: 'Hello.' }), { text: 'word '.repeat(20_000) }),
      'turn:stop': () => undefined,
      // Images in messages: one kept, then read back by its digest.
      'images:add': () => ({ bytes: PNG_1X1, name: 'dot.png' }),
      'images:read': () => ({ sha256: createHash('sha256').update(PNG_1X1).digest('hex') }),
      'turn:steer': () => ({ text: 'Also check the tests.' }),
      'approvals:answer': () => ({ requestId: randomUUID(), approved: false }),
      // Run again after a turn that failed (failTurn below); answered this time.
      'turn:retry': () => (h.server.enqueue({ text: 'Hello again.' }), undefined),
      'context:compact': () => (h.server.enqueue({ text: 'The person asked for a long list of words.' }), undefined),
      'context:editSummary': () => ({ text: 'The person asked for words; nothing was changed.' }),
      // The window's session has a message by now; the fork takes its place until sessions:open brings the original back.
      'sessions:fork': () => ({ message: 0 }),
      'sessions:acknowledge': () => undefined,
      'sessions:clear': () => undefined,
      'sessions:open': () => ({ id: sessionId, where: 'here' }),
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
      'eval:pick': () => (h.picker.willPick(caseFile), undefined),
      'eval:run': () => ({ source: 'file' }),
      'eval:session': () => ({ case: 'greet', run: 1 }),
      'eval:stop': () => undefined,
    };
    const answered: string[] = [];
    let lastTurnFrom = 0;
    for (const [channel, input] of Object.entries(steps) as Array<[InvokeChannel, () => unknown]>) {
      // Retry needs a last turn that failed; the compaction below then waits for the retried turn.
      if (channel === 'turn:retry') {
        await failTurn(h, client);
        lastTurnFrom = client.received.length;
      }
      // A turn must end before the session can be compacted or cleared.
      if (channel === 'context:compact') await client.turnFinished(lastTurnFrom);
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

/** Stops a turn still running, then runs one that fails (the model service errs mid-answer). */
async function failTurn(h: ServiceHarness, client: ReturnType<ServiceHarness['connect']>): Promise<void> {
  const stopping = client.received.length;
  if ((await client.value<{ stopped: boolean }>('turn:stop')).stopped) await client.turnFinished(stopping);
  // Answers the steps above left unread go first, so the failure below is the next turn's.
  while (h.server.pending() > 0) {
    const draining = client.received.length;
    await client.value('turn:send', { text: 'Go on.' });
    await client.turnFinished(draining);
  }
  const from = client.received.length;
  h.server.enqueue({ fail: 'error', message: 'The service is overloaded.' });
  await client.value('turn:send', { text: 'Hello?' });
  await client.turnFinished(from);
}

async function seedCreatedFile(h: ServiceHarness, sessionId: string): Promise<void> {
  const content = 'created\n';
  await fs.writeFile(path.join(h.project, 'created.txt'), content);
  const sha256 = await keepContent(h.home, sessionId, content);
  const record = { type: 'change', change_id: randomUUID(), call_id: 'seeded', path: 'created.txt', before: { kind: 'absent' }, after: { kind: 'file', sha256 }, at: new Date().toISOString() };
  await fs.appendFile(sessionFile(h.home, sessionId), `${JSON.stringify(record)}\n`);
}
