// Auto mode through the real loop, the real bash tool and the real sandbox:
// sandboxed commands run without asking (shown), a command that asks to leave
// the sandbox asks, and where no sandbox is available (turned off in Settings,
// even in the middle of a session) every command asks and the dialog says why.
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { eventRecorder, field, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';

let fx: AgentFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const sandboxed = (await sandboxAvailability()).available;

async function runTurn(fixture: AgentFixture, calls: Array<{ call_id: string; name: string; arguments: Record<string, unknown> }>, approve: boolean) {
  fixture.server.enqueue({ calls }, { text: 'Done.' });
  const recorder = eventRecorder();
  const approver = recordingApprover(() => approve);
  const conversation = await Conversation.start(fixture.deps, fixture.project);
  try {
    await conversation.ask('Run it.', { mode: 'auto', approver, onEvent: recorder.onEvent });
  } finally {
    await conversation.close();
  }
  return { recorder, approver };
}

describe.skipIf(!sandboxed)('auto mode', () => {
  it('runs a sandboxed command without asking and shows it as allowed in auto mode', async () => {
    fx = await makeAgentFixture();
    const { recorder, approver } = await runTurn(fx, [{ call_id: 'c1', name: 'bash', arguments: { command: 'echo hi > a.txt' } }], false);
    expect(approver.asks).toEqual([]);
    expect(recorder.of('tool_call')[0]).toMatchObject({ callId: 'c1', decision: 'allow', mode: 'auto' });
    expect(recorder.of('tool_confirmation')[0]).toMatchObject({ callId: 'c1', asked: false, mode: 'auto' });
    expect(recorder.of('tool_result')[0]).toMatchObject({ callId: 'c1', status: 'completed' });
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('hi\n');
  });

  it('asks before a command that asks to leave the sandbox, and runs nothing when the person says no', async () => {
    fx = await makeAgentFixture();
    const { recorder, approver } = await runTurn(fx, [{ call_id: 'c1', name: 'bash', arguments: { command: 'echo out > a.txt', sandbox: false } }], false);
    expect(approver.asks.map((ask) => ask.toolName)).toEqual(['bash']);
    expect(recorder.of('tool_result')[0]).toMatchObject({ callId: 'c1', status: 'denied' });
    await expect(fs.access(fx.file('a.txt'))).rejects.toThrow();
  });

  it('asks before every command once the sandbox is turned off in the middle of the session, and says why', async () => {
    fx = await makeAgentFixture();
    const first = await runTurn(fx, [{ call_id: 'c1', name: 'bash', arguments: { command: 'echo one > a.txt' } }], false);
    expect(first.approver.asks).toEqual([]);

    fx.settings.bashSandbox = false;
    const { recorder, approver } = await runTurn(fx, [{ call_id: 'c2', name: 'bash', arguments: { command: 'echo two > a.txt' } }], false);
    expect(approver.asks.map((ask) => ask.toolName)).toEqual(['bash']);
    const confirmation = approver.asks[0]!.confirmation;
    expect(confirmation.warning).toMatch(/^In auto mode, Bash commands run without asking only in the sandbox, and no sandbox is available now/);
    expect(field(confirmation, 'Sandbox')).toMatch(/^not available: the sandbox is turned off in Settings/);
    expect(recorder.of('tool_call')[0]).toMatchObject({ callId: 'c2', decision: 'ask', mode: 'auto' });
    expect(recorder.of('tool_result')[0]).toMatchObject({ callId: 'c2', status: 'denied' });
    expect(await fs.readFile(fx.file('a.txt'), 'utf8')).toBe('one\n');
  });
});
