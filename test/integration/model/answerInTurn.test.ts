// An answer's size as a turn sees it, end to end: a real Conversation and
// session log in a temp home, the loopback mock streaming in many small
// chunks. An answer over the limit ends the turn with a message and leaves
// nothing of itself in the log; one under it is counted by Mino, whatever
// usage the service reports, when the next request's budget is decided.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { SUMMARIZER_INSTRUCTIONS } from '../../../src/main/core/context/summarizer';
import { ESTIMATE_COUNTER } from '../../../src/main/core/context/tokens';
import { ANSWER_LIMIT_BYTES } from '../../../src/main/core/model/limits';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

let fx: AgentFixture;
afterEach(async () => {
  await fx?.cleanup();
});

const MiB = 1024 * 1024;

async function records(id: string): Promise<Array<Record<string, unknown>>> {
  const text = await fs.readFile(sessionFile(fx.home, id), 'utf8');
  return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('an answer over the limit in a turn', () => {
  it('ends the turn saying where it was cut and what to do; the log keeps none of it, and the session goes on', async () => {
    fx = await makeAgentFixture();
    const conversation = await Conversation.start(fx.deps, fx.project);
    const planned = 24 * MiB;
    fx.server.enqueue({ text: 'MARK'.repeat(planned / 4), deltaSize: 4096, usage: { input_tokens: 10, output_tokens: 5 } });
    const recorder = eventRecorder();
    const outcome = await conversation.ask('Write a lot', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });

    expect(outcome.status).toBe('failed');
    expect(outcome.message).toMatch(/^The model's answer was cut at 4 MiB: text, reasoning and tool-call arguments together may not exceed that in one response, so Mino stopped reading it/);
    expect(outcome.message).toMatch(/Ask for a smaller step/);
    // What was passed on while it streamed stops at the limit; the service was not read to the end.
    const shown = recorder.of('assistant_delta').reduce((sum, e) => sum + Buffer.byteLength(e.delta), 0);
    expect(shown).toBeLessThanOrEqual(ANSWER_LIMIT_BYTES);
    expect(fx.server.requests[0]!.sent.finished).toBe(false);
    expect(fx.server.requests[0]!.sent.bytes).toBeLessThan(planned);

    const log = await records(conversation.id);
    expect(log.filter((record) => record.type === 'response')).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: 'turn_end', status: 'failed', message: outcome.message });
    expect((await fs.stat(sessionFile(fx.home, conversation.id))).size).toBeLessThan(ANSWER_LIMIT_BYTES);

    // Nothing of the cut answer goes back with the next request.
    fx.server.enqueue({ text: 'Short.' });
    expect((await conversation.ask('Just the first part, then', { mode: 'manual', approver: recordingApprover() })).status).toBe('completed');
    expect(fx.server.requests[1]!.raw).not.toContain('MARKMARK');
    expect(fx.server.requests[1]!.raw.length).toBeLessThan(MiB);
    await conversation.close();
  });
});

describe('usage a service reports for an answer', () => {
  const WINDOW = 20_000; // compacts at 16,000 (80%)
  // 60 KB: 24,000 tokens by the estimate a model outside OpenAI's families is counted with.
  const LONG = 'lorem ipsum dolor sit amet, LONG-ANSWER\n'.repeat(1_500);

  it('is not taken as the size of the answer when Mino counts more: the next request compacts first', async () => {
    fx = await makeAgentFixture({ settings: { contextWindow: WINDOW } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    // The service claims 15 tokens for the whole exchange.
    fx.server.enqueue({ text: LONG, deltaSize: 512, usage: { input_tokens: 10, output_tokens: 5 } });
    const first = eventRecorder();
    expect((await conversation.ask('Write it', { mode: 'manual', approver: recordingApprover(), onEvent: first.onEvent })).status).toBe('completed');
    const counted = ESTIMATE_COUNTER.count(LONG);
    expect(counted).toBeGreaterThan(WINDOW);
    expect(first.of('turn_end')[0]!.context!.used).toBeGreaterThanOrEqual(counted);

    fx.server.enqueue({ text: 'The person asked for a long text; it was written.' }, { text: 'Next.' });
    const second = eventRecorder();
    expect((await conversation.ask('What next?', { mode: 'manual', approver: recordingApprover(), onEvent: second.onEvent })).status).toBe('completed');
    // The request after the long answer was the summarizer's: Mino compacted because of its own count.
    expect(fx.server.requests).toHaveLength(3);
    expect(fx.server.requests[1]!.body.instructions).toBe(SUMMARIZER_INSTRUCTIONS);
    expect(fx.server.requests[2]!.raw).not.toContain('LONG-ANSWER');
    const [compaction] = second.of('compaction');
    expect(compaction!.tokensBefore).toBeGreaterThanOrEqual(counted);
    await conversation.close();
  });

  it('is not taken as the size of the answer by a resumed session either', async () => {
    fx = await makeAgentFixture({ settings: { contextWindow: WINDOW } });
    const conversation = await Conversation.start(fx.deps, fx.project);
    fx.server.enqueue({ text: LONG, deltaSize: 512, usage: { input_tokens: 10, output_tokens: 5 } });
    await conversation.ask('Write it', { mode: 'manual', approver: recordingApprover() });
    await conversation.close();

    const resumed = await Conversation.resume(fx.deps, conversation.id);
    expect((await resumed.countContext()).used).toBeGreaterThanOrEqual(ESTIMATE_COUNTER.count(LONG));
    await resumed.close();
  });
});
