// Remote servers over Streamable HTTP, against a real loopback server built
// with the SDK's server side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/main/core/mcp/manager';
import type { ToolContext } from '../../../src/main/core/tools/types';
import { startTestHttpServer, type TestHttpServer } from '../../support/mcp/httpServer';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';
import { runTool, toolNamed } from './helpers';

const HEADER_TOKEN = `hdr-${Math.random().toString(36).slice(2)}-token`;
const QUERY_KEY = `qk-${Math.random().toString(36).slice(2)}-key`;

let server: TestHttpServer;
let manager: McpManager;
let ctx: ToolContext;
let dirs: string[];

beforeAll(async () => {
  server = await startTestHttpServer();
  const projectDir = await makeTempDir('project');
  const homeDir = await makeTempDir('home');
  dirs = [projectDir, homeDir];
  ctx = { projectDir, homeDir };
  manager = new McpManager({
    servers: [{ name: 'remote', url: `${server.url}?key=${QUERY_KEY}`, headers: { Authorization: `Bearer ${HEADER_TOKEN}` } }],
    projectDir,
  });
});

afterAll(async () => {
  await manager.close();
  await server.close();
  await removeDirs(dirs);
});

describe('Streamable HTTP MCP servers', () => {
  it('lists the remote tools as mcp_remote__<tool>', async () => {
    const { tools, problems } = await manager.tools();
    expect(problems).toEqual([]);
    expect(tools.map((tool) => tool.name).sort()).toEqual(['mcp_remote__big', 'mcp_remote__echo', 'mcp_remote__fail', 'mcp_remote__picture', 'mcp_remote__show-request']);
  });

  it('calls a remote tool and passes its text on', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_remote__echo'), { message: 'over http' }, ctx);
    expect(result).toEqual({ status: 'completed', output: 'Echo: over http' });
    expect(server.calls.at(-1)).toEqual({ tool: 'echo', args: { message: 'over http' } });
  });

  it('shows the URL origin and path as the destination: no query string, no headers', async () => {
    const callsBefore = server.calls.length;
    const echo = await toolNamed(manager, 'mcp_remote__echo');
    const inspection = await echo.inspect({ message: 'hi' }, ctx);
    if (!inspection.ok) throw new Error('inspection failed');
    const fields = Object.fromEntries(inspection.confirmation.fields.map((field) => [field.label, field.value]));
    expect(fields).toEqual({ Server: 'remote', Destination: server.url, Tool: 'echo', Arguments: '{\n  "message": "hi"\n}' });
    expect(inspection.confirmation.warning).toBe('Sends these arguments to the remote server, which is a remote service.');
    const shown = JSON.stringify(inspection.confirmation);
    expect(shown).not.toContain(QUERY_KEY);
    expect(shown).not.toContain(HEADER_TOKEN);
    expect(shown).not.toContain('?');
    // Inspection is built from the call alone: the server heard nothing.
    expect(server.calls.length).toBe(callsBefore);
  });

  it('sends the configured headers but redacts them, and the URL key, from what the server echoes', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_remote__show-request'), {}, ctx);
    expect(result.status).toBe('completed');
    expect(result.output).toContain('"authorization": "[redacted]"');
    expect(result.output).toContain('key=[redacted]');
    expect(result.output).not.toContain(HEADER_TOKEN);
    expect(result.output).not.toContain(QUERY_KEY);
  });

  it('turns an isError result into failed', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_remote__fail'), {}, ctx);
    expect(result).toEqual({ status: 'failed', output: 'Nothing to do: this tool always fails.' });
  });

  it('summarizes images and resources by type, size and URI', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_remote__picture'), {}, ctx);
    expect(result).toEqual({
      status: 'completed',
      output: [
        '[image: image/png, 300 bytes; not shown]',
        '[resource: test://notes/1, text/plain, 12 bytes; not shown]',
        '[resource link: test://notes/2, "Second note"]',
      ].join('\n'),
    });
  });

  it('cuts output over 64 KiB and says how much there was', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_remote__big'), { bytes: 70_000 }, ctx);
    expect(result.status).toBe('completed');
    expect(result.output).toBe(`${'x'.repeat(65_536)}\n[Output cut: showing the first 65,536 bytes of 70,000 bytes.]`);
  });

  it('reports the server in status by origin and path only', async () => {
    const [status] = await manager.status();
    expect(status).toEqual({ name: 'remote', transport: 'http', destination: server.url, state: 'connected', toolCount: 5 });
  });
});

describe('an unreachable HTTP server', () => {
  it('gives a problem for the person and an error result for the model', async () => {
    const gone = await startTestHttpServer();
    const url = gone.url;
    const listing = new McpManager({ servers: [{ name: 'remote', url }], projectDir: ctx.projectDir });
    const echo = await toolNamed(listing, 'mcp_remote__echo');
    await gone.close();
    const result = await echo.execute({ message: 'anyone?' }, undefined, ctx);
    expect(result.status).toBe('error');
    expect(result.output).toContain('The remote MCP server did not complete the call');
    await listing.close();

    const late = new McpManager({ servers: [{ name: 'remote', url }], projectDir: ctx.projectDir });
    const { tools, problems } = await late.tools();
    expect(tools).toEqual([]);
    expect(problems).toEqual([expect.stringContaining('MCP server "remote" could not be started or reached')]);
    await late.close();
  });
});
