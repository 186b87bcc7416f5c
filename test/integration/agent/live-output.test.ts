// A running command's output reaches the front end while it runs, through the
// real bash tool, loop and service batching, bounded in size, and is never
// saved: the session log holds only the result.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import type { TurnEvent } from '../../../src/main/core/agent/events';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { createBashTool } from '../../../src/main/core/tools/bash';
import { DeltaBatcher } from '../../../src/main/service/features/deltaBatcher';
import { LIVE_OUTPUT_TAIL_CHARS } from '../../../src/shared/sessions';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

let fx: AgentFixture | undefined;

afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const NO_SANDBOX = async () => ({ available: false as const, reason: 'this test runs without it' });

describe('live output of a running command', () => {
  it('hands each chunk to the caller while the command still runs, whole characters only', async () => {
    fx = await makeAgentFixture();
    const bash = createBashTool({ sandbox: NO_SANDBOX });
    // "é" is two bytes, printed one at a time with a pause between them.
    const command = "printf 'one\\n'; sleep 0.6; printf '\\303'; sleep 0.3; printf '\\251 two\\n'";
    const validation = bash.validate({ command });
    if (!validation.ok) throw new Error(validation.reason);
    const chunks: Array<{ text: string; finished: boolean }> = [];
    let finished = false;
    const result = await bash
      .execute(validation.args, null, { projectDir: fx.project, homeDir: fx.home, onOutput: (text) => chunks.push({ text, finished }) })
      .finally(() => (finished = true));
    expect(chunks[0]).toEqual({ text: 'one\n', finished: false });
    expect(chunks.every((chunk) => !chunk.finished)).toBe(true);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('one\né two\n');
    expect(chunks.some((chunk) => chunk.text.includes('\uFFFD'))).toBe(false);
    expect(result).toEqual({ status: 'completed', output: 'one\né two\nExit code: 0' });
  });

  it('reaches the window as tool_output events before the result, and the session log keeps only the result', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue(
      { calls: [{ name: 'bash', arguments: { command: "for i in 1 2 3; do echo line $i; sleep 0.3; done; exit 3" }, call_id: 'count' }] },
      { text: 'Counted.' },
    );
    const recorder = eventRecorder();
    const sent: TurnEvent[] = [];
    // The service's batching, as a window receives the events.
    const batcher = new DeltaBatcher((event) => sent.push(event));
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('Count to three.', {
      mode: 'manual',
      approver: recordingApprover(() => true),
      onEvent: (event) => {
        recorder.onEvent(event);
        batcher.push(event);
      },
    });
    batcher.flush();
    await conversation.close();

    const types = sent.map((event) => event.type);
    const firstOutput = types.indexOf('tool_output');
    expect(firstOutput).toBeGreaterThan(types.indexOf('approval'));
    expect(firstOutput).toBeLessThan(types.indexOf('tool_result'));
    // Several batches while the command ran, not one at its end.
    expect(recorder.of('tool_output').length).toBeGreaterThanOrEqual(3);
    const live = sent.flatMap((event) => (event.type === 'tool_output' ? [event] : []));
    expect(live.every((event) => event.callId === 'count')).toBe(true);
    expect(live.map((event) => event.chunk).join('')).toBe('line 1\nline 2\nline 3\n');
    const result = recorder.of('tool_result')[0];
    expect(result).toMatchObject({ status: 'failed', output: 'line 1\nline 2\nline 3\nExit code: 3' });

    const log = await fs.readFile(sessionFile(fx.home, conversation.id), 'utf8');
    expect(log).not.toContain('tool_output');
    expect(log.split('line 1').length - 1).toBe(1);
  });
});

describe('DeltaBatcher and live output', () => {
  it('sends a fast command\'s output as one batch holding only its newest part, with how much was left out', () => {
    const sent: TurnEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event), 16, 60_000);
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`);
    for (const line of lines) batcher.push({ type: 'tool_output', callId: 'yes', chunk: line });
    batcher.flush();
    const all = lines.join('');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({ type: 'tool_output', callId: 'yes', chunk: all.slice(-LIVE_OUTPUT_TAIL_CHARS), skipped: all.length - LIVE_OUTPUT_TAIL_CHARS });
  });

  it('keeps the order: text before output before the next event, and one batch per call', () => {
    const sent: TurnEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event), 60_000, 60_000);
    batcher.push({ type: 'assistant_delta', delta: 'Running it.' });
    batcher.push({ type: 'tool_output', callId: 'a', chunk: 'a1 ' });
    batcher.push({ type: 'tool_output', callId: 'a', chunk: 'a2' });
    batcher.push({ type: 'tool_output', callId: 'b', chunk: 'b1' });
    batcher.push({ type: 'tool_result', callId: 'b', name: 'bash', status: 'completed', output: 'b1\nExit code: 0' });
    expect(sent).toEqual([
      { type: 'assistant_delta', delta: 'Running it.' },
      { type: 'tool_output', callId: 'a', chunk: 'a1 a2' },
      { type: 'tool_output', callId: 'b', chunk: 'b1' },
      { type: 'tool_result', callId: 'b', name: 'bash', status: 'completed', output: 'b1\nExit code: 0' },
    ]);
  });
});
