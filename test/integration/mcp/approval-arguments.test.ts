// An approval covers everything that is sent: the confirmation's preview holds
// the complete arguments, and arguments too large to show are refused before
// any server sees them. Through the real agent loop, with the recording HTTP
// MCP server and the loopback mock model service.
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/domain';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { MAX_APPROVAL_ARGUMENTS_BYTES, inspectMcpCall } from '../../../src/main/core/mcp/confirmation';
import { eventRecorder, field, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { startTestHttpServer, type TestHttpServer } from '../../support/mcp/httpServer';

let fx: AgentFixture | undefined;
let remote: TestHttpServer | undefined;

afterEach(async () => {
  await fx?.cleanup();
  await remote?.close();
  fx = undefined;
  remote = undefined;
});

async function echoTurn(message: string, mode: PermissionMode, approve: boolean) {
  remote = await startTestHttpServer();
  fx = await makeAgentFixture({ mcpServers: [{ name: 'remote', url: remote.url }] });
  fx.server.enqueue({ calls: [{ name: 'mcp_remote__echo', arguments: { message }, call_id: 'call_echo' }] }, { text: 'Done.' });
  const approver = recordingApprover(() => approve);
  const recorder = eventRecorder();
  const conversation = await Conversation.start(fx.deps, fx.project);
  await conversation.ask('Echo this through the remote server.', { mode, approver, onEvent: recorder.onEvent });
  await conversation.close();
  return { approver, recorder, server: remote, agent: fx };
}

describe('MCP approvals show the complete arguments', () => {
  it("shows a long argument's tail in the preview, and the server receives exactly what the preview showed", async () => {
    const message = `${'a'.repeat(9000)}<<the end only visible in full: rm -rf ~>>`;
    const { approver, server } = await echoTurn(message, 'manual', true);
    expect(approver.asks).toHaveLength(1);
    const confirmation = approver.asks[0].confirmation;
    // The field stays a readable summary that says where the rest is...
    expect(field(confirmation, 'Arguments')).not.toContain('rm -rf ~');
    expect(field(confirmation, 'Arguments')).toContain('(9,042 characters, 9,042 bytes; in full in the preview)');
    // ...and the preview holds every character that is sent.
    expect(confirmation.preview).toContain('<<the end only visible in full: rm -rf ~>>');
    expect(confirmation.preview).toBe(JSON.stringify({ message }, null, 2));
    expect(server.calls).toEqual([{ tool: 'echo', args: JSON.parse(confirmation.preview ?? 'null') }]);
  });

  it('puts the complete arguments in the preview of a call allowed without asking (bypass) too', async () => {
    const message = `${'b'.repeat(5000)}TAIL`;
    const { approver, recorder } = await echoTurn(message, 'bypass', false);
    expect(approver.asks).toEqual([]);
    const shown = recorder.of('tool_confirmation');
    expect(shown).toHaveLength(1);
    expect(shown[0].confirmation.preview).toBe(JSON.stringify({ message }, null, 2));
  });

  it.each<PermissionMode>(['manual', 'bypass'])(
    'refuses arguments too large to show (%s): nothing is asked, nothing reaches the server, the model learns the size and what to do',
    async (mode) => {
      const message = 'x'.repeat(MAX_APPROVAL_ARGUMENTS_BYTES);
      const { approver, recorder, server, agent } = await echoTurn(message, mode, true);
      expect(approver.asks).toEqual([]);
      expect(recorder.of('tool_confirmation')).toEqual([]);
      expect(server.calls).toEqual([]);
      const bytes = Buffer.byteLength(JSON.stringify({ message }, null, 2), 'utf8');
      const results = recorder.of('tool_result');
      expect(results.map((r) => r.status)).toEqual(['invalid_arguments']);
      expect(results[0].output).toContain('too large to show for approval');
      expect(results[0].output).toContain(`${bytes.toLocaleString('en-US')} bytes`);
      expect(results[0].output).toContain('Send smaller arguments');
      expect(outputsIn(agent.server.requests.at(-1)!.body).map((o) => o.status)).toEqual(['invalid_arguments']);
    },
  );
});

describe('inspectMcpCall at the size limit', () => {
  const server = { name: 'remote', url: 'https://mcp.example.com/mcp' };
  const overhead = Buffer.byteLength(JSON.stringify({ message: '' }, null, 2), 'utf8');
  // Two-byte characters, so a character count would differ from the byte count.
  const room = MAX_APPROVAL_ARGUMENTS_BYTES - overhead;
  const fullSize = 'é'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2);
  const call = (message: string) => inspectMcpCall({ server, toolName: 'mcp_remote__echo', serverToolName: 'echo', args: { message } });

  it('accepts pretty-printed arguments of exactly 64 KiB and shows them whole', () => {
    const message = fullSize;
    const inspection = call(message);
    if (!inspection.ok) throw new Error(inspection.result.output);
    expect(Buffer.byteLength(inspection.confirmation.preview ?? '', 'utf8')).toBe(MAX_APPROVAL_ARGUMENTS_BYTES);
    expect(inspection.confirmation.preview).toBe(JSON.stringify({ message }, null, 2));
  });

  it('counts UTF-8 bytes, not characters: one more byte is refused', () => {
    expect(call(`${fullSize}y`)).toMatchObject({ ok: false, result: { status: 'invalid_arguments', output: expect.stringContaining('65,537 bytes') } });
  });
});
