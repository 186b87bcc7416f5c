// Reasoning models, usage and the prompt cache key, against the loopback mock.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { mockReasoningItem } from '../../support/mockResponsesServer';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

let fx: AgentFixture;
afterEach(async () => {
  await fx?.cleanup();
});

const REASONING = { id: 'rs_1', summary: 'Reading **a.txt** first, since the question is about it.', encrypted_content: 'gAAAAB' + 'Zm9v'.repeat(200) + '==' };
const ask = (conversation: Conversation, text: string, onEvent?: Parameters<Conversation['ask']>[1]['onEvent']) =>
  conversation.ask(text, { mode: 'manual', approver: recordingApprover(), onEvent });

describe('reasoning items', () => {
  it('are requested for reasoning models, streamed as a summary, saved, and sent back byte for byte and in order', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'hello\n' }, model: 'gpt-5-mini', settings: { reasoningEffort: 'high' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue(
      { reasoning: REASONING, calls: [{ name: 'read_file', arguments: { path: 'a.txt' }, call_id: 'call_a' }], usage: { input_tokens: 900, output_tokens: 300, reasoning_tokens: 250, cached_tokens: 512 } },
      { text: 'It says hello.' },
    );
    const recorder = eventRecorder();
    await ask(conversation, 'What is in a.txt?', recorder.onEvent);

    const first = fx.server.requests[0]!.body;
    expect(first.include).toEqual(['reasoning.encrypted_content']);
    expect(first.reasoning).toEqual({ summary: 'auto', effort: 'high' });
    expect(first.store).toBe(false);

    const deltas = recorder.of('reasoning_delta').map((event) => event.delta);
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(REASONING.summary);
    expect(recorder.of('reasoning_text')).toEqual([{ type: 'reasoning_text', text: REASONING.summary }]);

    // Sent back with every field and value as received (in the log's key order), right before the call it led to.
    const { id, type, summary, encrypted_content } = mockReasoningItem(REASONING);
    const expected = JSON.stringify({ type, id, summary, encrypted_content });
    const sent = fx.server.requests[1]!;
    const input = sent.body.input as Array<{ type: string }>;
    const at = input.findIndex((item) => item.type === 'reasoning');
    expect(input[at]).toEqual(mockReasoningItem(REASONING));
    expect(JSON.stringify(input[at])).toBe(expected);
    expect(sent.raw).toContain(JSON.stringify(REASONING.encrypted_content));
    expect(input[at + 1]).toMatchObject({ type: 'function_call', call_id: 'call_a' });

    // Saved in the log with the response's usage, and rebuilt the same on resume.
    const log = (await fs.readFile(sessionFile(fx.home, conversation.id), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    const response = log.find((record) => record.type === 'response');
    expect(JSON.stringify(response.output[0])).toBe(expected);
    expect(response.usage).toEqual({ inputTokens: 900, outputTokens: 300, cachedInputTokens: 512, reasoningTokens: 250 });
    expect(recorder.of('turn_end')[0]!.usage).toEqual({ inputTokens: 910, cachedInputTokens: 512, outputTokens: 305, reasoningTokens: 250 });
    const live = JSON.stringify(conversation.historyItems);
    await conversation.close();
    const resumed = await Conversation.resume(fx.deps, conversation.id);
    expect(JSON.stringify(resumed.historyItems)).toBe(live);
    await resumed.close();
  });

  it('with reasoning auto, turns on for a model that is not known to reason once a response carried reasoning', async () => {
    fx = await makeAgentFixture({ model: 'local-model' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: 'plain' }, { reasoning: REASONING, text: 'thought' }, { text: 'again' });
    await ask(conversation, 'one');
    await ask(conversation, 'two');
    await ask(conversation, 'three');
    const [one, two, three] = fx.server.requests.map((request) => request.body);
    expect(one.include).toBeUndefined();
    expect(one.reasoning).toBeUndefined();
    expect(two.include).toBeUndefined();
    expect(three.include).toEqual(['reasoning.encrypted_content']);
    // No effort is sent unless one is chosen.
    expect(three.reasoning).toEqual({ summary: 'auto' });
    await conversation.close();
  });

  it('with reasoning off, sends no reasoning fields even to a reasoning model', async () => {
    fx = await makeAgentFixture({ model: 'o4-mini', settings: { reasoning: 'off' } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: 'ok' });
    await ask(conversation, 'hi');
    expect(fx.server.requests[0]!.body.include).toBeUndefined();
    expect(fx.server.requests[0]!.body.reasoning).toBeUndefined();
    await conversation.close();
  });

  it('a service that rejects the reasoning fields gets one clear error naming the setting to change', async () => {
    fx = await makeAgentFixture({ model: 'gpt-5-mini' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ httpStatus: 400, body: { error: { message: "Unsupported parameter: 'reasoning.summary'.", type: 'invalid_request_error', param: 'reasoning.summary' } } });
    const outcome = await ask(conversation, 'hi');
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringMatching(/refused the reasoning fields.*Set "Reasoning" to off in Settings \("reasoning": "off" in ~\/\.mino\/config\.json\)/) });
    expect(fx.server.requests).toHaveLength(1);
    await conversation.close();
  });
});

describe('prompt_cache_key', () => {
  it('is the same on every request of a session, also after resuming it, and differs between sessions', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'hello\n' } });
    const first = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'one' });
    await ask(first, 'one');
    await first.close();
    const resumed = await Conversation.resume(fx.deps, first.id);
    fx.server.enqueue({ text: 'two' });
    await ask(resumed, 'two');
    await resumed.close();
    const other = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: 'three' });
    await ask(other, 'three');
    await other.close();

    const keys = fx.server.requests.map((request) => request.body.prompt_cache_key as string);
    expect(keys[0]).toMatch(/^mino-[0-9a-f]{32}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(keys[0]).not.toContain(first.id);
  });
});
