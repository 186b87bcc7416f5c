// An MCP server that fails is told once while it keeps failing, not on every
// turn, even when what it printed differs between attempts.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { eventRecorder, makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { probeServer } from '../../support/mcp/servers';

let fx: AgentFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

describe('MCP problems across turns', () => {
  it('tells a server that keeps failing to start once, though its output differs each time, and nothing once it works', async () => {
    const probe = probeServer('flaky');
    const script = probe.args![0]!;
    // The server's script lives in the temp home, so the test can take it away and put it back.
    fx = await makeAgentFixture({ mcpServers: [] });
    const moved = path.join(fx.home, 'flaky-server.mjs');
    await fs.writeFile(path.join(fx.home, '.mino', 'mcp.json'), JSON.stringify({ servers: [{ ...probe, args: [moved] }] }), { mode: 0o600 });
    const conversation = await Conversation.start(fx.deps, fx.project);
    const noticesOf = async (question: string) => {
      fx!.server.enqueue({ text: 'ok' });
      const recorder = eventRecorder();
      await conversation.ask(question, { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
      return recorder.of('notice').filter((notice) => notice.message.includes('flaky')).length;
    };
    try {
      expect(await noticesOf('first, the server is missing')).toBe(1);
      expect(await noticesOf('second, still missing')).toBe(0);
      await fs.copyFile(script, moved);
      expect(await noticesOf('third, the server works')).toBe(0);
    } finally {
      await conversation.close();
    }
  }, 60_000);
});
