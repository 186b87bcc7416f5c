// Chapter 08, section 4: the greet.go turn through the real loop, file tools,
// policy and session log, against the loopback mock model service.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { loadSession } from '../../../src/main/core/sessions/load';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { eventRecorder, field, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const GREET = 'package main\n\nconst greeting = "hi"\n';

describe('the greet.go turn', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('reads without asking, applies the approved edit, rejects an absent fragment without asking, keeps the file on a denied overwrite, and reloads after the file is deleted', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    fx.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'call_read' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hello"' }, call_id: 'call_edit' }] },
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"absent"', new_string: '"x"' }, call_id: 'call_absent' }] },
      { calls: [{ name: 'write_file', arguments: { path: 'greet.go', content: 'package main\n', mode: 'overwrite' }, call_id: 'call_write' }] },
      { text: 'I changed greeting from "hi" to "hello" on line 3 of greet.go.' },
    );
    const approver = recordingApprover((request) => request.toolName === 'edit_file');
    const recorder = eventRecorder();
    const conversation = await Conversation.start(fx.deps, fx.project);

    const outcome = await conversation.ask('Change the greeting in greet.go to "hello".', { mode: 'manual', approver, onEvent: recorder.onEvent });

    expect(outcome.status).toBe('completed');
    // Only the edit and the overwrite reached the person.
    expect(approver.asks.map((a) => a.callId)).toEqual(['call_edit', 'call_write']);
    const edit = approver.asks[0].confirmation;
    expect(field(edit, 'Path')).toBe('greet.go');
    expect(field(edit, 'Project directory')).toBe(fx.project);
    expect(field(edit, 'Starting line')).toBe('3');
    expect(field(edit, 'Remove')).toBe('"hi"');
    expect(field(edit, 'Insert')).toBe('"hello"');
    expect(field(edit, 'Resulting file')).toBe('39 bytes, 3 lines');

    const results = recorder.of('tool_result');
    expect(results.map((r) => [r.callId, r.status])).toEqual([
      ['call_read', 'completed'],
      ['call_edit', 'completed'],
      ['call_absent', 'invalid_arguments'],
      ['call_write', 'denied'],
    ]);
    expect(results[0].output).toBe(GREET);
    expect(results[1].output).toBe('Edited greet.go at line 3 (39 bytes, 3 lines).');
    expect(await fs.readFile(fx.file('greet.go'), 'utf8')).toBe('package main\n\nconst greeting = "hello"\n');

    // The model received every result, paired, including the denial.
    const last = fx.server.requests.at(-1)!;
    expect(outputsIn(last.body).map((o) => [o.call_id, o.status])).toEqual([
      ['call_read', 'completed'],
      ['call_edit', 'completed'],
      ['call_absent', 'invalid_arguments'],
      ['call_write', 'denied'],
    ]);
    const historyLength = conversation.historyItems.length;
    await conversation.close();

    // Replay never depends on today's files.
    await fs.rm(fx.file('greet.go'));
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    expect(loaded.history).toHaveLength(historyLength);
    expect(loaded.unknownCalls).toEqual([]);
    const resumed = await Conversation.resume(fx.deps, conversation.id);
    expect(resumed.historyItems).toEqual(loaded.history);
    await resumed.close();
  });

  it('saves the response before the tool start, and the start before the result', async () => {
    fx = await makeAgentFixture({ files: { 'greet.go': GREET } });
    fx.server.enqueue(
      { calls: [{ name: 'edit_file', arguments: { path: 'greet.go', old_string: '"hi"', new_string: '"hey"' }, call_id: 'c1' }] },
      { text: 'Done.' },
    );
    const conversation = await Conversation.start(fx.deps, fx.project);
    await conversation.ask('edit', { mode: 'manual', approver: recordingApprover(() => true) });
    await conversation.close();
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(BUILTIN_TOOLS).validateCall);
    // What was shown is saved before the ask; the edit's pre-image after its start, before the write (and so before the result).
    expect(loaded.records.map((r) => r.type)).toEqual(['session', 'model', 'user', 'response', 'confirmation', 'tool_start', 'change', 'tool_result', 'response', 'turn_end']);
  });
});
