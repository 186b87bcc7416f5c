// The MCP tool-name grammar: names the model API accepts, that read back to
// the server and tool they were built from, or a refusal that says why; and
// sessions recorded under earlier names still load.
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { parseMcpConfig } from '../../../src/main/core/mcp/config';
import { McpManager } from '../../../src/main/core/mcp/manager';
import { MAX_SERVER_NAME_LENGTH, isMcpToolName, mcpToolName, parseMcpToolName, serverNameProblem } from '../../../src/main/core/mcp/toolName';
import { validateMcpArguments } from '../../../src/main/core/mcp/validateCall';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { makeAgentFixture, recordingApprover, type AgentFixture } from '../../support/agentFixture';
import { probeServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';

const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const apiChars = (max: number) => fc.stringMatching(new RegExp(`^[a-zA-Z0-9_-]{1,${max}}$`));

describe('mcpToolName and parseMcpToolName', () => {
  it('joins server and tool as mcp_<server>__<tool>, and reads it back', () => {
    expect(mcpToolName('everything', 'get-sum')).toEqual({ ok: true, name: 'mcp_everything__get-sum' });
    expect(parseMcpToolName('mcp_everything__get-sum')).toEqual({ server: 'everything', tool: 'get-sum' });
    expect(parseMcpToolName('mcp_my_docs__read__all')).toEqual({ server: 'my_docs', tool: 'read__all' });
  });

  it('any server and tool either give an API name that parses back to the same pair, or a refusal with a reason', () => {
    // Arbitrary text, and text from the API's own alphabet so that both outcomes are exercised.
    const part = fc.oneof(fc.string({ maxLength: 70 }), apiChars(70), apiChars(20));
    let accepted = 0;
    fc.assert(
      fc.property(part, part, (server, tool) => {
        const result = mcpToolName(server, tool);
        if (result.ok) {
          accepted++;
          expect(result.name).toMatch(API_NAME);
          expect(parseMcpToolName(result.name)).toEqual({ server, tool });
          expect(isMcpToolName(result.name)).toBe(true);
        } else {
          expect(result.reason).toMatch(/server name .* (must|may)|is left out: /);
        }
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('a name that parses is exactly the name built from its pair (one name per tool)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 70 }), apiChars(64).map((rest) => `mcp_${rest}`)), (name) => {
        const pair = parseMcpToolName(name);
        if (pair !== null) expect(mcpToolName(pair.server, pair.tool)).toEqual({ ok: true, name });
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses, with what to do, a tool whose name would be too long or carries characters the API refuses', () => {
    const long = mcpToolName('a'.repeat(MAX_SERVER_NAME_LENGTH), 'echo');
    expect(long).toEqual({ ok: false, reason: expect.stringContaining('over the model API\'s 64. A shorter server name in ~/.mino/mcp.json makes room') });
    expect(mcpToolName('files', 'read.v2')).toEqual({ ok: false, reason: expect.stringContaining('The tool "read.v2" of the files MCP server is left out') });
  });

  it('mcp.json refuses exactly the server names the grammar cannot carry, saying why', () => {
    const names = ['docs', 'my_docs', 'my.docs', 'my docs', 'a__b', '_a', 'a_', 'x'.repeat(MAX_SERVER_NAME_LENGTH), 'x'.repeat(MAX_SERVER_NAME_LENGTH + 1)];
    const text = JSON.stringify({ servers: names.map((name) => ({ name, command: 'true' })) });
    const loaded = parseMcpConfig(text, 'mcp.json');
    expect(loaded.servers.map((server) => server.name)).toEqual(names.filter((name) => serverNameProblem(name) === null));
    expect(loaded.servers).toHaveLength(3);
    expect(loaded.problems).toHaveLength(6);
    expect(loaded.problems[0]).toBe(
      'mcp.json, server 3 ("my.docs"): "name": may contain only letters, digits, "-" and single "_" between them (no spaces or dots, no "__", not starting or ending with "_"), since it becomes part of tool names the model API accepts. This server is skipped; the others still work.',
    );
    expect(loaded.problems[5]).toContain(`"name": must be at most ${MAX_SERVER_NAME_LENGTH} characters`);
  });
});

describe('isMcpToolName and validateMcpArguments (pure, for replay)', () => {
  it('recognizes MCP names, including the cut-and-hashed names earlier versions saved, and nothing else', () => {
    expect(isMcpToolName('mcp_everything__echo')).toBe(true);
    expect(isMcpToolName('mcp_acme-internal-documentation-search-and-retrieval-se_41123a5c')).toBe(true);
    expect(isMcpToolName('read_file')).toBe(false);
    expect(isMcpToolName('mcp_')).toBe(false);
    expect(isMcpToolName('mcp_a__b c')).toBe(false);
    expect(isMcpToolName(`mcp_a__${'b'.repeat(60)}`)).toBe(false);
  });

  it('accepts a JSON object and refuses anything else with a reason that says how to recover', () => {
    expect(validateMcpArguments({ a: 1 })).toEqual({ ok: true, args: { a: 1 } });
    for (const raw of [null, [], 'text', 3]) {
      expect(validateMcpArguments(raw)).toEqual({ ok: false, reason: expect.stringContaining('Call again with an object') });
    }
  });
});

describe('a session that used a tool of a server with a 58-character name', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('resumes, and takes the next question, though the server name is now refused', async () => {
    const server = 'acme-internal-documentation-search-and-retrieval-service01';
    expect(server).toHaveLength(58);
    fx = await makeAgentFixture({ mcpServers: [probeServer(server)] });
    // The name the earlier version offered for this server's "echo" tool: cut to fit, ending in a hash.
    const savedName = 'mcp_acme-internal-documentation-search-and-retrieval-se_41123a5c';
    const log = await SessionLog.create(fx.home, fx.project);
    await log.append({ type: 'user', text: 'Search the docs.' });
    await log.append({ type: 'response', responseId: 'resp_1', output: [{ type: 'function_call', call_id: 'call_1', name: savedName, arguments: '{"q":"x"}' }] });
    await log.append({ type: 'tool_start', call_id: 'call_1', name: savedName, arguments: '{"q":"x"}' });
    await log.append({ type: 'tool_result', call_id: 'call_1', name: savedName, status: 'completed', output: 'found' });
    await log.append({ type: 'response', responseId: 'resp_2', output: [{ type: 'message', role: 'assistant', text: 'Found it.' }] });
    await log.append({ type: 'turn_end', status: 'completed' });
    await log.close();

    const resumed = await Conversation.resume(fx.deps, log.id);
    expect(resumed.historyItems.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    fx.server.enqueue({ text: 'Still here.' });
    const outcome = await resumed.ask('Anything else?', { mode: 'manual', approver: recordingApprover() });
    await resumed.close();
    expect(outcome.status).toBe('completed');
  });
});

describe('name collisions', () => {
  const dirs: string[] = [];
  afterAll(async () => removeDirs(dirs));

  it('offers the first of two servers given the same name and reports each tool of the second', async () => {
    const projectDir = await makeTempDir('project');
    dirs.push(projectDir);
    const manager = new McpManager({ servers: [probeServer('probe'), probeServer('probe', { cwd: '/' })], projectDir });
    try {
      const { tools, problems } = await manager.tools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['mcp_probe__crash', 'mcp_probe__hang', 'mcp_probe__whoami']);
      expect(problems).toHaveLength(3);
      expect(problems[0]).toMatch(/MCP tool names collide: a tool of the probe server would be offered as mcp_probe__\w+, which the probe server already uses/);
    } finally {
      await manager.close();
    }
  });
});
