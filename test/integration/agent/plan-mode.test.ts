// update_plan and plan mode through the real loop, policy and tools: the
// session offers update_plan as a built-in tool, as defaultDeps.ts will. Only
// the model service (and, for MCP, the external server) is fake.
import * as fs from 'node:fs/promises';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, type ConversationDeps } from '../../../src/main/core/agent/conversation';
import { ToolRegistry } from '../../../src/main/core/agent/toolRegistry';
import { loadSession } from '../../../src/main/core/sessions/load';
import { updatePlanTool } from '../../../src/main/core/tools/updatePlan';
import type { AnyTool, Tool } from '../../../src/main/core/tools/types';
import type { PermissionMode } from '../../../src/shared/domain';
import { eventRecorder, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';

const STEPS = [
  { step: 'Read main.go', status: 'completed' },
  { step: 'Find the bug', status: 'in_progress' },
  { step: 'Propose a fix', status: 'pending' },
];

function withUpdatePlan(fx: AgentFixture): ConversationDeps {
  // Offered by default now; kept explicit so these tests say what they rely on.
  return fx.deps.builtinTools.some((tool) => tool.name === updatePlanTool.name) ? fx.deps : { ...fx.deps, builtinTools: [...fx.deps.builtinTools, updatePlanTool] };
}

const mcpTool: Tool<Record<string, unknown>, null> = {
  name: 'mcp_notes__post',
  description: 'stand-in for an external tool',
  kind: 'mcp',
  argsSchema: z.record(z.string(), z.unknown()),
  validate: (raw) => ({ ok: true, args: raw as Record<string, unknown> }),
  target: () => ({}),
  inspect: async () => ({ ok: true, state: null, confirmation: { tool: 'mcp_notes__post', fields: [] } }),
  execute: async () => ({ status: 'completed', output: 'posted' }),
  denialMessage: 'not approved',
};

describe('update_plan and plan mode in the loop', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('records a plan without asking in every mode, tells it as a plan event, and keeps the call in the log', async () => {
    fx = await makeAgentFixture();
    const modes: PermissionMode[] = ['manual', 'plan'];
    for (const [index] of modes.entries()) {
      fx.server.enqueue({ calls: [{ name: 'update_plan', arguments: { steps: STEPS, explanation: 'First look.' }, call_id: `plan${index}` }] }, { text: 'Planned.' });
    }
    const approver = recordingApprover();
    const recorder = eventRecorder();
    const conversation = await Conversation.start(withUpdatePlan(fx), fx.project);
    for (const mode of modes) await conversation.ask('Plan the fix', { mode, approver, onEvent: recorder.onEvent });
    await conversation.close();

    expect(approver.asks).toEqual([]);
    expect(recorder.of('tool_confirmation')).toEqual([]);
    expect(recorder.of('plan')).toEqual(modes.map((_, index) => ({ type: 'plan', callId: `plan${index}`, plan: { steps: STEPS, explanation: 'First look.' } })));
    const types = recorder.events.map((event) => event.type);
    expect(types.indexOf('plan')).toBe(types.indexOf('tool_result') + 1);
    expect(outputsIn(fx.server.requests[1]!.body)).toEqual([
      { call_id: 'plan0', status: 'completed', output: 'Plan recorded (1 of 3 steps completed); the person sees it. In progress: Find the bug' },
    ]);
    // The log keeps it as any call, so a replayed session can show the plan where it changed.
    const loaded = await loadSession(fx.home, conversation.id, new ToolRegistry(withUpdatePlan(fx).builtinTools).validateCall);
    const starts = loaded.records.filter((record) => record.type === 'tool_start');
    expect(starts.map((record) => record.type === 'tool_start' && record.name)).toEqual(['update_plan', 'update_plan']);
  });

  it('refuses an invalid plan with invalid_arguments saying why, and tells no plan', async () => {
    fx = await makeAgentFixture();
    const twoRunning = STEPS.map((step) => ({ ...step, status: 'in_progress' }));
    fx.server.enqueue({ calls: [{ name: 'update_plan', arguments: { steps: twoRunning }, call_id: 'bad' }] }, { text: 'ok' });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(withUpdatePlan(fx), fx.project);
    await conversation.ask('Plan', { mode: 'plan', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(recorder.of('tool_result')).toEqual([
      expect.objectContaining({ status: 'invalid_arguments', output: expect.stringMatching(/^update_plan: 3 steps are in_progress; at most one step is in progress at a time\./) }),
    ]);
    expect(recorder.of('plan')).toEqual([]);
  });

  it('in plan mode reads and searches run, while writes, bash and MCP calls are refused telling the model to present its plan', async () => {
    fx = await makeAgentFixture({ files: { 'main.go': 'package main\n' }, extraTools: [mcpTool as AnyTool] });
    fx.server.enqueue(
      {
        calls: [
          { name: 'read_file', arguments: { path: 'main.go' }, call_id: 'read' },
          { name: 'search_files', arguments: { pattern: 'package' }, call_id: 'search' },
          { name: 'edit_file', arguments: { path: 'main.go', old_string: 'main', new_string: 'app' }, call_id: 'edit' },
          { name: 'bash', arguments: { command: 'touch ran' }, call_id: 'bash' },
          { name: 'bash', arguments: { command: 'touch ran-outside', sandbox: false }, call_id: 'outside' },
          { name: 'mcp_notes__post', arguments: { text: 'hi' }, call_id: 'mcp' },
        ],
      },
      { text: 'My plan: rename the package.' },
    );
    const approver = recordingApprover(() => true);
    const recorder = eventRecorder();
    const conversation = await Conversation.start(withUpdatePlan(fx), fx.project);
    await conversation.ask('Plan a rename', { mode: 'plan', approver, onEvent: recorder.onEvent });
    await conversation.close();

    const status = Object.fromEntries(recorder.of('tool_result').map((result) => [result.callId, result.status]));
    expect(status).toEqual({ read: 'completed', search: 'completed', edit: 'denied', bash: 'denied', outside: 'denied', mcp: 'denied' });
    for (const result of recorder.of('tool_result').filter((r) => r.status === 'denied')) {
      expect(result.output).toMatch(/^Blocked by policy: plan mode does not run .+ plan mode is for planning\. .*present the plan to the person and end your turn/);
    }
    expect(approver.asks).toEqual([]);
    expect(await fs.readFile(fx.file('main.go'), 'utf8')).toBe('package main\n');
    await expect(fs.access(fx.file('ran'))).rejects.toThrow();
    await expect(fs.access(fx.file('ran-outside'))).rejects.toThrow();
    const instructions = fx.server.requests[0]!.body.instructions as string;
    expect(instructions).toContain('This turn runs in plan mode, for planning only:');
    expect(instructions).toContain('File writes and edits, Bash commands and MCP calls are refused in this mode');
    expect(instructions).toContain('- For work of several steps, keep a short plan with update_plan');
  });

  it('does not tell a turn in another mode about plan mode', async () => {
    fx = await makeAgentFixture();
    fx.server.enqueue({ text: 'hi' });
    const conversation = await Conversation.start(withUpdatePlan(fx), fx.project);
    await conversation.ask('hello', { mode: 'manual', approver: recordingApprover() });
    await conversation.close();
    expect(fx.server.requests[0]!.body.instructions).not.toContain('This turn runs in plan mode');
  });

  it('applies plan mode at once when the person picks it during a turn', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'a\n' } });
    let mode: PermissionMode = 'accept-edits';
    fx.server.enqueue(
      { calls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n', mode: 'create' }, call_id: 'before' }] },
      () => {
        mode = 'plan';
        return { calls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'c\n', mode: 'create' }, call_id: 'after' }] };
      },
      { text: 'ok' },
    );
    const recorder = eventRecorder();
    const conversation = await Conversation.start(withUpdatePlan(fx), fx.project);
    await conversation.ask('write', { mode: () => mode, approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(recorder.of('tool_result').map((result) => [result.callId, result.status])).toEqual([
      ['before', 'completed'],
      ['after', 'denied'],
    ]);
  });
});
