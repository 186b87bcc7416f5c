// "Send now": a message the person sends to a running turn is delivered at
// the turn's next model request, as a user message between the tool results
// and that request, saved in the log at that point; a resumed session and a
// replayed transcript have it in the same place. Through a real Conversation
// against the loopback model service; the approver (the person) sends it
// while being asked about a call, so no timing decides where it lands.
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { turnStarts } from '../../../src/main/core/context/pairing';
import { planCompaction } from '../../../src/main/core/context/plan';
import { ESTIMATE_COUNTER } from '../../../src/main/core/context/tokens';
import { loadSession } from '../../../src/main/core/sessions/load';
import { replayEvents } from '../../../src/main/core/sessions/replayEvents';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const STEER = 'Use tabs, not spaces.';

/** The request body's input as kinds: "user: TEXT", "call ID", "output ID", "assistant: TEXT". */
function inputShape(body: { input?: Array<{ type: string; role?: string; content?: unknown; call_id?: string }> }): string[] {
  return (body.input ?? []).map((item) => {
    if (item.type === 'function_call') return `call ${item.call_id}`;
    if (item.type === 'function_call_output') return `output ${item.call_id}`;
    const text = typeof item.content === 'string' ? item.content : (item.content as Array<{ text: string }>).map((part) => part.text).join('');
    return `${item.role}: ${text}`;
  });
}

describe('steering a running turn', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('delivers a message sent during a call between its result and the next request, saved there, and resumes and replays it in place', async () => {
    fx = await makeAgentFixture({ files: { 'notes.md': 'old\n' } });
    fx.server.enqueue(
      { calls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'new\n', mode: 'overwrite' }, call_id: 'w1' }] },
      { text: 'Done, with tabs.' },
    );
    const conversation = await Conversation.start(fx.deps, fx.project);
    const accepted: boolean[] = [];
    // The person sends the message while the write waits for their answer, then approves it.
    const approver = recordingApprover(() => {
      accepted.push(conversation.steer(STEER));
      return true;
    });
    const recorder = eventRecorder();
    const outcome = await conversation.ask('Rewrite notes.md.', { mode: 'manual', approver, onEvent: recorder.onEvent });
    expect(outcome.status).toBe('completed');
    expect(accepted).toEqual([true]);

    // The second request carries it after the call's output, as the person's message.
    expect(fx.server.requests).toHaveLength(2);
    expect(inputShape(fx.server.requests[1]!.body)).toEqual(['user: Rewrite notes.md.', 'call w1', 'output w1', `user: ${STEER}`]);

    // Told to the window after the result and before the next request starts.
    const kinds = recorder.events.map((event) => event.type).filter((type) => type !== 'assistant_delta' && type !== 'reasoning_delta');
    const at = kinds.indexOf('steered_message');
    expect(kinds.slice(at - 1, at + 2)).toEqual(['tool_result', 'steered_message', 'assistant_start']);
    expect(recorder.of('steered_message')).toEqual([{ type: 'steered_message', text: STEER }]);
    // No turn runs now: a message sent now is refused, so the front end sends it as the next turn.
    expect(conversation.steer('Too late.')).toBe(false);
    const liveHistory = [...conversation.historyItems];
    await conversation.close();

    // Saved between the call's result and the next response, once.
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(fx.deps.builtinTools).validateCall);
    const types = loaded.records.map((record) => record.type);
    expect(types.filter((type) => type === 'steer')).toHaveLength(1);
    expect(types.slice(types.indexOf('tool_result'), types.indexOf('turn_end') + 1)).toEqual(['tool_result', 'steer', 'response', 'turn_end']);
    expect(loaded.records.find((record) => record.type === 'steer')).toMatchObject({ type: 'steer', text: STEER });

    // Rebuilt exactly as the turn built it, the message still marked as part of the turn.
    expect(loaded.history).toEqual(liveHistory);
    expect(loaded.history.filter((item) => item.type === 'message' && item.role === 'user')).toEqual([
      { type: 'message', role: 'user', text: 'Rewrite notes.md.' },
      { type: 'message', role: 'user', text: STEER, steered: true },
    ]);

    // A replayed transcript shows it where it was delivered, inside the same turn.
    const replayed = replayEvents(loaded.records, new ToolRegistry(fx.deps.builtinTools).display).map((event) => event.type);
    const replayAt = replayed.indexOf('steered_message');
    expect(replayed.slice(replayAt - 1, replayAt + 2)).toEqual(['tool_result', 'steered_message', 'assistant_start']);
    expect(replayed.filter((type) => type === 'user_message')).toHaveLength(1);

    // Resumed, the next turn's request has it in the same place.
    fx.server.enqueue({ text: 'Yes.' });
    const resumed = await Conversation.resume(fx.deps, conversation.id);
    await resumed.ask('Did it work?', { mode: 'manual', approver: recordingApprover() });
    await resumed.close();
    expect(inputShape(fx.server.requests[2]!.body)).toEqual([
      'user: Rewrite notes.md.',
      'call w1',
      'output w1',
      `user: ${STEER}`,
      'assistant: Done, with tabs.',
      'user: Did it work?',
    ]);
  });

  it('delivers several messages in the order sent, each its own record, at the next request only', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ calls: [{ name: 'bash', arguments: { command: 'echo hi' }, call_id: 'b1' }] }, { text: 'Both noted.' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const approver = recordingApprover(() => {
      conversation.steer('First.');
      conversation.steer('Second.');
      return false;
    });
    await conversation.ask('Run echo.', { mode: 'manual', approver });
    await conversation.close();
    expect(inputShape(fx.server.requests[0]!.body)).toEqual(['user: Run echo.']);
    expect(inputShape(fx.server.requests[1]!.body)).toEqual(['user: Run echo.', 'call b1', 'output b1', 'user: First.', 'user: Second.']);
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(fx.deps.builtinTools).validateCall);
    expect(loaded.records.filter((record) => record.type === 'steer').map((record) => 'text' in record && record.text)).toEqual(['First.', 'Second.']);
  });

  it('does not deliver a message sent after the last request: the turn ends without it and nothing of it is saved', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'All done.' });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const accepted: boolean[] = [];
    const recorder = eventRecorder();
    const outcome = await conversation.ask('Say done.', {
      mode: 'manual',
      approver: recordingApprover(),
      onEvent: (event) => {
        recorder.onEvent(event);
        // Sent while the turn's only request streams: no request follows to carry it.
        if (event.type === 'assistant_start') accepted.push(conversation.steer('One more thing.'));
      },
    });
    await conversation.close();
    expect(outcome.status).toBe('completed');
    expect(accepted).toEqual([true]);
    expect(fx.server.requests).toHaveLength(1);
    expect(recorder.of('steered_message')).toEqual([]);
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(fx.deps.builtinTools).validateCall);
    expect(loaded.records.some((record) => record.type === 'steer')).toBe(false);
    expect(JSON.stringify(loaded.history)).not.toContain('One more thing.');
  });

  it('keeps a steered message inside its turn when a compaction cuts: only the person\'s questions start turns', () => {
    const history = [
      { type: 'message', role: 'user', text: 'Earlier question. '.repeat(200) },
      { type: 'message', role: 'assistant', text: 'Earlier answer. '.repeat(200) },
      { type: 'message', role: 'user', text: 'Fix the build.' },
      { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"command":"make"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      { type: 'message', role: 'user', text: 'Also run the tests.', steered: true },
    ] as const;
    expect(turnStarts(history)).toEqual([0, 2]);
    const plan = planCompaction(history, ESTIMATE_COUNTER, { window: 100_000, inTurn: true, keptShare: 0 });
    expect(plan).toMatchObject({ ok: true, keptFrom: 2 });
  });
});
