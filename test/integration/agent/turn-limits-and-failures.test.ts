// How a turn ends when it cannot complete: limits, model service failures and
// a Stop. Every ending leaves a saved, paired history the next turn can use.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { BUILTIN_TOOLS, sessionDeps } from '../../../src/main/core/agent/defaultDeps';
import { MISSING_KEY_MESSAGE } from '../../../src/main/core/config/modelConfig';
import { DEFAULT_SETTINGS } from '../../../src/main/core/config/settings';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { findUnpairedCalls } from '../../../src/main/core/model/history';
import { LIMIT_MESSAGES, limitMessages } from '../../../src/main/core/policy/limits';
import { loadSession } from '../../../src/main/core/sessions/load';
import { eventRecorder, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const read = (id: string) => ({ name: 'read_file', arguments: { path: 'a.txt' }, call_id: id });

async function expectPairedOnDisk(fx: AgentFixture, id: string): Promise<void> {
  const loaded = await loadSession(fx.home, id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
  expect(findUnpairedCalls(loaded.history)).toEqual([]);
}

describe('turn limits', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('stops after 8 model requests with a clear message and a paired history', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    for (let i = 0; i < 9; i += 1) fx.server.enqueue({ calls: [read(`r${i}`)] });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const outcome = await conversation.ask('loop', { mode: 'manual', approver: recordingApprover() });
    expect(outcome).toEqual({ status: 'limit', message: LIMIT_MESSAGES.modelRequests });
    expect(fx.server.requests).toHaveLength(8);
    expect(findUnpairedCalls([...conversation.historyItems])).toEqual([]);
    await conversation.close();
    await expectPairedOnDisk(fx, conversation.id);
  });

  it('runs at most 16 tool calls, counting denied and invalid ones, and pairs the rest without running them', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    const calls = [
      { name: 'read_file', arguments: { path: '.env' }, call_id: 'denied' },
      { name: 'read_file', arguments: { path: '/etc/passwd' }, call_id: 'invalid' },
      ...Array.from({ length: 14 }, (_, i) => read(`ok${i}`)),
      { name: 'bash', arguments: { command: 'touch should-not-run' }, call_id: 'over' },
    ];
    fx.server.enqueue({ calls });
    const approver = recordingApprover(() => true);
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const outcome = await conversation.ask('many', { mode: 'manual', approver, onEvent: recorder.onEvent });
    expect(outcome).toEqual({ status: 'limit', message: LIMIT_MESSAGES.toolCalls });
    const results = recorder.of('tool_result');
    expect(results).toHaveLength(17);
    expect(results.at(-1)).toMatchObject({ callId: 'over', status: 'error', output: LIMIT_MESSAGES.notRunAfterLimit });
    expect(approver.asks).toEqual([]);
    expect(fx.server.requests).toHaveLength(1);
    await conversation.close();
    await expectPairedOnDisk(fx, conversation.id);
  });
});

describe('model failures and Stop', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it.each([
    ['an HTTP error', { httpStatus: 400, body: { error: { message: 'bad request', type: 'invalid_request_error' } } }],
    ['response.failed', { fail: 'failed' as const }],
    ['response.incomplete', { fail: 'incomplete' as const }],
    ['an error event', { fail: 'error' as const }],
    ['a dropped stream', { fail: 'drop' as const }],
  ])('ends the turn as failed on %s after a tool ran, and the next turn sends a paired history', async (_name, failure) => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    fx.server.enqueue({ calls: [read('first')] }, failure);
    const conversation = await Conversation.start(fx.deps, fx.project);
    const outcome = await conversation.ask('one', { mode: 'manual', approver: recordingApprover() });
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toMatch(/\S/);
    await expectPairedOnDisk(fx, conversation.id);

    fx.server.enqueue({ text: 'Back again.' });
    const next = await conversation.ask('two', { mode: 'manual', approver: recordingApprover() });
    expect(next.status).toBe('completed');
    const body = fx.server.requests.at(-1)!.body;
    expect(outputsIn(body).map((o) => o.call_id)).toEqual(['first']);
    await conversation.close();
  });

  it('Stop during streaming ends the turn as aborted and keeps the history valid', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ hangAfterDeltas: ['Thinking', ' about it'] });
    const stop = new AbortController();
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const turn = conversation.ask('slow', {
      mode: 'manual',
      approver: recordingApprover(),
      signal: stop.signal,
      onEvent: (event) => {
        recorder.onEvent(event);
        if (event.type === 'assistant_delta') stop.abort();
      },
    });
    const outcome = await turn;
    expect(outcome.status).toBe('aborted');
    expect(recorder.of('turn_end')).toHaveLength(1);
    await expectPairedOnDisk(fx, conversation.id);

    fx.server.enqueue({ text: 'ok' });
    expect((await conversation.ask('again', { mode: 'manual', approver: recordingApprover() })).status).toBe('completed');
    await conversation.close();
  });

  it('a missing API key fails the turn with a message saying what to set, before anything is sent', async () => {
    fx = await makeAgentFixture();
    const { OPENAI_API_KEY: _key, ...envWithoutKey } = fx.env;
    const { deps, close } = sessionDeps({ homeDir: fx.home, env: envWithoutKey, settings: async () => DEFAULT_SETTINGS });
    const conversation = await Conversation.start(deps, fx.project);
    const outcome = await conversation.ask('hello', { mode: 'manual', approver: recordingApprover() });
    expect(outcome).toEqual({ status: 'failed', message: MISSING_KEY_MESSAGE });
    expect(fx.server.requests).toHaveLength(0);
    await conversation.close();
    await close();
  });
});

describe('untrusted shapes of a turn', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('refuses a response that reuses a call id, runs nothing from it, and the session still loads', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    fx.server.enqueue({ calls: [read('dup')] }, { text: 'ok' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('one', { mode: 'manual', approver: recordingApprover() });
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'touch ran' }, call_id: 'dup' }] });
    const outcome = await conversation.ask('two', { mode: 'bypass', approver: recordingApprover() });
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toContain('(dup)');
    await expect(fs.access(fx.file('ran'))).rejects.toThrow();
    await conversation.close();
    await expectPairedOnDisk(fx, conversation.id);
    const resumed = await Conversation.resume(fx.deps, conversation.id);
    await resumed.close();
  });

  it('refuses two calls with the same id in one response', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    fx.server.enqueue({ calls: [read('twin'), read('twin')] });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const outcome = await conversation.ask('one', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
    expect(outcome.status).toBe('failed');
    expect(recorder.of('tool_result')).toEqual([]);
    await conversation.close();
    await expectPairedOnDisk(fx, conversation.id);
  });

  it('asks the mode before every call, so a mode tightened during a turn applies to the next call', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: 'echo 1 >> runs.log' }, call_id: 'b1' }] },
      { calls: [{ name: 'bash', arguments: { command: 'echo 2 >> runs.log' }, call_id: 'b2' }] },
      { text: 'done' },
    );
    let mode: 'bypass' | 'manual' = 'bypass';
    const approver = recordingApprover(() => false);
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('run twice', {
      mode: () => mode,
      approver,
      onEvent: (event) => {
        if (event.type === 'tool_result' && event.callId === 'b1') mode = 'manual';
      },
    });
    await conversation.close();
    expect(await fs.readFile(fx.file('runs.log'), 'utf8')).toBe('1\n');
    expect(approver.asks.map((a) => a.callId)).toEqual(['b2']);
  });

  it('rebuilds a paired history from the log when a front end fails mid-turn', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    fx.server.enqueue({ calls: [read('r1'), read('r2')] });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const failing = conversation.ask('one', {
      mode: 'manual',
      approver: recordingApprover(),
      onEvent: (event) => {
        if (event.type === 'tool_call' && event.callId === 'r1') throw new Error('display failed');
      },
    });
    await expect(failing).rejects.toThrow('display failed');
    expect(findUnpairedCalls([...conversation.historyItems])).toEqual([]);
    fx.server.enqueue({ text: 'fine' });
    expect((await conversation.ask('two', { mode: 'manual', approver: recordingApprover() })).status).toBe('completed');
    await conversation.close();
  });

  it('states the limits in force in its messages', () => {
    expect(limitMessages({ modelRequests: 3, toolCalls: 5 }).toolCalls).toContain('after 5 tool calls');
    expect(limitMessages({ modelRequests: 3, toolCalls: 5 }).modelRequests).toContain('after 3 model requests');
  });
});
