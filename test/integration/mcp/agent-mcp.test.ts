// MCP tools through the real agent loop, policy, approvals and session log,
// with the loopback mock model service as the only fake. Servers come from
// ~/.mino/mcp.json in a temp home, as in the app.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/domain';
import { Conversation } from '../../../src/main/core/agent/conversation';
import type { McpServerConfig } from '../../../src/main/core/mcp/config';
import { eventRecorder, field, makeAgentFixture, outputsIn, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { startTestHttpServer, type TestHttpServer } from '../../support/mcp/httpServer';
import { everythingServer, leakyServer } from '../../support/mcp/servers';

let fx: AgentFixture | undefined;
let remote: TestHttpServer | undefined;

afterEach(async () => {
  await fx?.cleanup();
  await remote?.close();
  fx = undefined;
  remote = undefined;
});

async function withServers(servers: McpServerConfig[]): Promise<AgentFixture> {
  fx = await makeAgentFixture({ mcpServers: servers });
  return fx;
}

async function echoTurn(mode: PermissionMode, approve: boolean) {
  remote = await startTestHttpServer();
  const agent = await withServers([{ name: 'remote', url: remote.url }]);
  agent.server.enqueue({ calls: [{ name: 'mcp_remote__echo', arguments: { message: 'ping' }, call_id: 'call_echo' }] }, { text: 'Done.' });
  const approver = recordingApprover(() => approve);
  const recorder = eventRecorder();
  const conversation = await Conversation.start(agent.deps, agent.project);
  const outcome = await conversation.ask('Echo ping through the remote server.', { mode, approver, onEvent: recorder.onEvent });
  await conversation.close();
  return { agent, approver, recorder, outcome, server: remote };
}

describe('MCP tools in the agent loop', () => {
  it('offers the MCP tools to the model with their server schemas', async () => {
    const { agent } = await echoTurn('manual', false);
    const tools = (agent.server.requests[0].body as { tools: Array<{ name: string; parameters?: unknown }> }).tools;
    const echo = tools.find((tool) => tool.name === 'mcp_remote__echo');
    expect(echo?.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
  });

  it('asks in manual mode, showing server, destination, tool and arguments; a denied call never reaches the server', async () => {
    const { approver, recorder, outcome, server, agent } = await echoTurn('manual', false);
    expect(outcome.status).toBe('completed');
    expect(approver.asks).toHaveLength(1);
    const confirmation = approver.asks[0].confirmation;
    expect(field(confirmation, 'Server')).toBe('remote');
    expect(field(confirmation, 'Destination')).toBe(server.url);
    expect(field(confirmation, 'Tool')).toBe('echo');
    expect(field(confirmation, 'Arguments')).toBe('{\n  "message": "ping"\n}');
    expect(server.calls).toEqual([]);
    expect(recorder.of('tool_result').map((r) => [r.status, r.output])).toEqual([
      ['denied', 'The user did not approve this call. Do not retry without a new user request.'],
    ]);
    expect(outputsIn(agent.server.requests.at(-1)!.body).map((o) => o.status)).toEqual(['denied']);
  });

  it('asks in accept-edits mode too, and runs the call once approved', async () => {
    const { approver, recorder, server } = await echoTurn('accept-edits', true);
    expect(approver.asks).toHaveLength(1);
    expect(server.calls).toEqual([{ tool: 'echo', args: { message: 'ping' } }]);
    expect(recorder.of('tool_result').map((r) => [r.status, r.output])).toEqual([['completed', 'Echo: ping']]);
  });

  it('runs without asking in bypass mode, and still shows where the call went', async () => {
    const { approver, recorder, server } = await echoTurn('bypass', false);
    expect(approver.asks).toEqual([]);
    expect(server.calls).toEqual([{ tool: 'echo', args: { message: 'ping' } }]);
    const shown = recorder.of('tool_confirmation');
    expect(shown).toHaveLength(1);
    expect(shown[0].asked).toBe(false);
    expect(field(shown[0].confirmation, 'Destination')).toBe(server.url);
    expect(recorder.of('tool_result').map((r) => r.status)).toEqual(['completed']);
  });

  it('never puts a configured env value or header value in a model request or the session log', async () => {
    const envSecret = `sk-env-${Math.random().toString(36).slice(2)}-secret`;
    const headerSecret = `hdr-${Math.random().toString(36).slice(2)}-secret`;
    remote = await startTestHttpServer();
    const agent = await withServers([
      everythingServer('everything', { API_TOKEN: envSecret }),
      { name: 'remote', url: remote.url, headers: { 'X-Api-Key': headerSecret } },
    ]);
    agent.server.enqueue(
      {
        calls: [
          { name: 'mcp_everything__get-env', arguments: {}, call_id: 'call_env' },
          { name: 'mcp_remote__show-request', arguments: {}, call_id: 'call_headers' },
        ],
      },
      { text: 'Done.' },
    );
    const recorder = eventRecorder();
    const conversation = await Conversation.start(agent.deps, agent.project);
    await conversation.ask('Show me the server environment and request.', { mode: 'bypass', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();

    const results = recorder.of('tool_result');
    expect(results.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(results[0].output).toContain('"API_TOKEN": "[redacted]"');
    expect(results[1].output).toContain('"x-api-key": "[redacted]"');

    expect(agent.server.requests.length).toBe(2);
    for (const request of agent.server.requests) {
      expect(request.raw).not.toContain(envSecret);
      expect(request.raw).not.toContain(headerSecret);
    }
    const sessionsDir = path.join(agent.home, '.mino', 'sessions');
    const logs = await fs.readdir(sessionsDir);
    expect(logs.length).toBeGreaterThan(0);
    for (const name of logs) {
      const text = await fs.readFile(path.join(sessionsDir, name), 'utf8');
      expect(text).toContain('[redacted]');
      expect(text).not.toContain(envSecret);
      expect(text).not.toContain(headerSecret);
    }
    expect(JSON.stringify(recorder.events)).not.toContain(envSecret);
    expect(JSON.stringify(recorder.events)).not.toContain(headerSecret);
  });

  it('redacts a configured secret from the tool list too: names, titles, descriptions and schemas', async () => {
    const secret = `sk-tool-${Math.random().toString(36).slice(2)}-secret`;
    const agent = await withServers([leakyServer('leaky', secret)]);
    agent.server.enqueue({ calls: [{ name: 'mcp_leaky__lookup', arguments: { word: 'cat' }, call_id: 'call_lookup' }] }, { text: 'Done.' });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(agent.deps, agent.project);
    await conversation.ask('Look up cat.', { mode: 'bypass', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();

    const tools = (agent.server.requests[0].body as { tools: Array<{ name: string; description?: string; parameters?: Record<string, unknown> }> }).tools;
    const lookup = tools.find((tool) => tool.name === 'mcp_leaky__lookup');
    expect(lookup?.description).toContain('Authenticates with the token [redacted].');
    expect(lookup?.parameters).toMatchObject({
      properties: {
        word: { description: 'The word; the service key is [redacted]', default: '[redacted]' },
        mode: { enum: ['plain', '[redacted]'] },
        'x_[redacted]': { type: 'string' },
      },
    });
    // A name cannot be redacted and still be called: the tool is left out, and the person told why.
    expect(tools.map((tool) => tool.name)).not.toContain(expect.stringContaining('tool_'));
    expect(recorder.of('notice').map((n) => n.message)).toEqual([expect.stringContaining('"tool_[redacted]" of the leaky MCP server is left out')]);
    // The call still reaches the server under the tool's real name.
    expect(recorder.of('tool_result').map((r) => [r.status, r.output])).toEqual([['completed', 'looked up cat']]);

    for (const request of agent.server.requests) expect(request.raw).not.toContain(secret);
    expect(JSON.stringify(recorder.events)).not.toContain(secret);
    const sessionsDir = path.join(agent.home, '.mino', 'sessions');
    for (const name of await fs.readdir(sessionsDir)) {
      expect(await fs.readFile(path.join(sessionsDir, name), 'utf8')).not.toContain(secret);
    }
  });

  it('tells the person about a server that cannot start, and the turn still runs', async () => {
    const agent = await withServers([{ name: 'ghost', command: 'mino-no-such-command-xyz' }]);
    agent.server.enqueue({ text: 'Hello.' });
    const recorder = eventRecorder();
    const conversation = await Conversation.start(agent.deps, agent.project);
    const outcome = await conversation.ask('Hi', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
    await conversation.close();
    expect(outcome.status).toBe('completed');
    expect(recorder.of('notice').map((n) => n.message)).toEqual([expect.stringContaining('MCP server "ghost" could not be started or reached')]);
  });
});
