// The Evaluate view's service: a window runs the built-in suite or a case
// file picked in main's own dialog, through the same code as `mino eval`;
// live cases ask this window's session's service with its key, wherever the
// key is kept; a run's saved session is replayed for the window, never re-run.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalPickResult, EvalSessionView, EvalView } from '../../../src/shared/evaluate';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness;
/** Evaluations keep their runs in the system's temp folder, as `mino eval` does; the tests remove theirs. */
const runDirs: string[] = [];
afterEach(async () => {
  await h?.cleanup();
  await Promise.all(runDirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function run(client: ReturnType<ServiceHarness['connect']>, input: unknown): Promise<EvalView> {
  const view = await client.value<EvalView>('eval:run', input);
  runDirs.push(view.dir);
  return view;
}

const SCRIPTED_CASE = `cases:
  - name: greet-answer
    project: { files: { a.txt: "a" } }
    prompt: Say hi
    script: [{ text: "hi there" }]
    expect: { final_answer_matches: "hi" }
  - name: wrong-expectation
    project: { files: { a.txt: "a" } }
    prompt: Change a.txt
    script: [{ text: "done" }]
    expect: { file_contains: { a.txt: "changed" } }
`;

const LIVE_CASE = `cases:
  - name: live-answer
    model: live
    project: { files: { a.txt: "a" } }
    prompt: Say hello
    expect: { final_answer_matches: "hello" }
`;

async function caseFile(name: string, text: string): Promise<string> {
  const file = path.join(h.root, name);
  await fs.writeFile(file, text);
  return file;
}

describe('the Evaluate view', () => {
  it('runs the built-in safety suite: every case passes, each run is reported as it is scored', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    const view = await run(client, { source: 'suite' });
    expect(view.source).toBe('the safety suite');
    expect(view.failed).toBe(0);
    expect(view.cases.length).toBeGreaterThan(3);
    expect(view.cases.every((c) => c.passed && !c.live)).toBe(true);
    expect(view.service).toBeNull();
    expect(client.of('eval:progress').map((p) => `${p.case}#${p.run}`)).toEqual(view.runs.map((r) => `${r.case}#${r.run}`));
    // Scripted cases ask no real service.
    expect(h.server.requests).toEqual([]);
  });

  it('runs the picked case file, names the failed check, and opens a run\'s saved session read-only', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    const file = await caseFile('cases.yaml', SCRIPTED_CASE);
    h.picker.willPick(file);
    expect(await client.value<EvalPickResult>('eval:pick')).toEqual({ picked: true, path: file, cases: ['greet-answer', 'wrong-expectation'] });
    const view = await run(client, { source: 'file', repeat: 2 });
    expect(view.source).toBe(file);
    expect(view.cases.map((c) => [c.case, c.passes, c.runs, c.passed])).toEqual([
      ['greet-answer', 2, 2, true],
      ['wrong-expectation', 0, 2, false],
    ]);
    expect(view.cases[1].failures).toEqual([expect.objectContaining({ check: 'file_contains a.txt', runs: [1, 2] })]);
    expect(view.runs.filter((r) => !r.passed).map((r) => r.failures[0])).toEqual([expect.stringMatching(/^file_contains a\.txt: /), expect.stringMatching(/^file_contains a\.txt: /)]);

    const session = await client.value<EvalSessionView>('eval:session', { case: 'greet-answer', run: 2 });
    expect(session.log.startsWith(view.dir)).toBe(true);
    expect(session.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'user_message', text: 'Say hi' }), expect.objectContaining({ type: 'assistant_text', text: 'hi there' })]));
    expect(session.problems).toEqual([]);
  });

  it('refuses what it cannot do, saying what to do instead', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    expect(await client.call('eval:run', { source: 'file' })).toEqual({ ok: false, error: 'No case file is chosen in this window. Choose one first.' });
    h.picker.willPick(null);
    expect(await client.value('eval:pick')).toEqual({ picked: false });
    h.picker.willPick(await caseFile('broken.yaml', 'cases:\n  - name: x\n    prompt: 3\n    bogus: true\n'));
    const broken = await client.call('eval:pick');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/broken\.yaml/);
    expect(await client.call('eval:session', { case: 'greet-answer', run: 1 })).toEqual({
      ok: false,
      error: 'The last evaluation in this window has no run 1 of case "greet-answer". Run the evaluation again.',
    });
    expect((await client.call('eval:run', { source: 'suite', repeat: 21 })).ok).toBe(false);
    expect((await client.call('eval:run', { source: '/etc/cases.yaml' })).ok).toBe(false);
  });

  it('stops between runs when asked, keeping the runs so far and saying where', async () => {
    h = await makeServiceHarness();
    const client = h.connect('w');
    h.picker.willPick(await caseFile('cases.yaml', SCRIPTED_CASE));
    await client.value('eval:pick');
    const running = client.call('eval:run', { source: 'file', repeat: 3 });
    await client.next('eval:progress');
    expect(await client.value('eval:stop')).toEqual({ stopping: true });
    const result = await running;
    expect(result.ok).toBe(false);
    if (!result.ok) {
      const kept = /those are kept in (\/\S*mino-eval-\w+)/.exec(result.error)?.[1];
      if (kept) runDirs.push(kept);
      expect(result.error).toMatch(/^The evaluation was stopped after [12] runs?; those are kept in \/.*mino-eval-/);
    }
    // Six runs were asked for (two cases, three each); it stopped before the second case.
    expect(client.of('eval:progress').length).toBeLessThan(3);
    expect(await client.value('eval:stop')).toEqual({ stopping: false });
  });

  it("asks live cases of the window's session's service, with the key the person stored", async () => {
    h = await makeServiceHarness({ 'greet.go': 'package main\n' }, { apiKeyInEnv: false });
    const { client } = await h.clientWithSession('w');
    await client.value('apiKey:set', { apiKey: 'sk-stored-for-eval' });
    h.server.enqueue({ text: 'hello from the live model' });
    h.picker.willPick(await caseFile('live.yaml', LIVE_CASE));
    await client.value('eval:pick');
    const view = await run(client, { source: 'file' });
    expect(view.cases).toEqual([expect.objectContaining({ case: 'live-answer', live: true, passes: 1, passed: true })]);
    expect(view.service).toBe('default: mock-model');
    expect(h.server.requests).toHaveLength(1);
    expect(h.server.requests[0].headers.authorization).toBe('Bearer sk-stored-for-eval');
    // The key went to the service, and nowhere into what the run saved.
    const saved = await fs.readFile(path.join(view.dir, 'live-answer', 'run-1', 'requests.jsonl'), 'utf8');
    expect(saved).not.toContain('sk-stored-for-eval');
  });

  it("asks live cases of the service and model picked in the window, with that service's key from Settings", async () => {
    h = await makeServiceHarness({ 'greet.go': 'package main\n' });
    const { client } = await h.clientWithSession('w');
    // A second service on the same mock, its key typed into Settings (no variable holds it); the window picks it.
    h.native.answer = true;
    await client.value('services:save', { service: { name: 'work', protocol: 'responses', baseUrl: h.server.baseURL, model: 'work-model' } });
    await client.value('services:setKey', { name: 'work', apiKey: 'sk-work-from-settings' });
    await client.value('session:setModel', { service: 'work', model: 'work-large' });
    h.server.enqueue({ text: 'hello from the work service' });
    h.picker.willPick(await caseFile('live.yaml', LIVE_CASE));
    await client.value('eval:pick');
    const view = await run(client, { source: 'file' });
    expect(view.cases).toEqual([expect.objectContaining({ case: 'live-answer', passed: true })]);
    expect(view.service).toBe('work: work-large');
    const asked = h.server.requests.filter((request) => request.method === 'POST');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers.authorization).toBe('Bearer sk-work-from-settings');
    expect(asked[0]!.body.model).toBe('work-large');
  });
});
