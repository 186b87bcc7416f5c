// The tokenizer of an OpenAI model family is loaded only when a turn's
// decision needs it: far from the compaction point, a free upper bound (one
// token per byte) settles "no compaction yet"; near it, the exact count
// decides, as it did before the bound. The tokenizer is module state, so the
// far-from-it test runs first in this file.
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { BYTE_BOUND_COUNTER, tokenCounterFor, turnCounterFor } from '../../../src/main/core/context/tokens';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

let fx: AgentFixture;
afterEach(async () => {
  await fx?.cleanup();
});

const MODEL = 'gpt-5-mini';
const loaded = () => turnCounterFor(MODEL).exact === undefined;

describe('the tokenizer of a turn', () => {
  it('is not loaded for a turn far below the compaction point, and the context reported is the service’s count', async () => {
    fx = await makeAgentFixture({ model: MODEL });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: 'Hi.', usage: { input_tokens: 1_234, output_tokens: 6 } });
    const recorder = eventRecorder();
    const outcome = await conversation.ask('Say hi', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(outcome.status).toBe('completed');
    expect(fx.server.requests).toHaveLength(1);
    expect(recorder.of('turn_end')[0]?.context).toEqual({ used: 1_240, window: 128_000 });
    expect(turnCounterFor(MODEL).counter).toBe(BYTE_BOUND_COUNTER);
    expect(loaded()).toBe(false);
  });

  it('is loaded when the bound reaches the compaction point, and the exact count decides: no compaction for text under it', async () => {
    // 40 KB of prose: over the 16,000-token compaction point of a 20,000-token window in bytes, far under it in tokens.
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(900);
    fx = await makeAgentFixture({ model: MODEL, settings: { contextWindow: 20_000 } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: 'Read it.' });
    const recorder = eventRecorder();
    const outcome = await conversation.ask(prose, { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(outcome.status).toBe('completed');
    expect(recorder.of('compaction')).toEqual([]);
    expect(fx.server.requests).toHaveLength(1);
    expect(loaded()).toBe(true);
    // What made it the exact count's decision: the bound alone would have compacted.
    expect(BYTE_BOUND_COUNTER.count(prose)).toBeGreaterThan(16_000);
    expect((await tokenCounterFor(MODEL)).count(prose)).toBeLessThan(12_000);
  });
});

describe('the byte bound', () => {
  it('never counts less than the tokenizer, for text the estimate counts low as for any other', async () => {
    const exact = await tokenCounterFor(MODEL);
    const random = (n: number, alphabet: string) => Array.from({ length: n }, (_, i) => alphabet[(i * 7919 + (i >> 3)) % alphabet.length]).join('');
    const samples = [
      random(4_000, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
      random(4_000, '0123456789abcdef'),
      random(4_000, '!@#$%^&*(){}[]<>?/\\|~`;:,.'),
      '😀🎉🚀🧪🦄🫠🧬🪐'.repeat(200),
      Array.from({ length: 500 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 37) % 20_000))).join(''),
      'function add(a, b) { return a + b; }\n'.repeat(100),
      '\u0000\u0001\u0002\uFFFD'.repeat(300),
    ];
    for (const text of samples) expect(BYTE_BOUND_COUNTER.count(text)).toBeGreaterThanOrEqual(exact.count(text));
  });
});
