// Local servers over stdio: the published server-everything and
// server-filesystem, started from node_modules with this Node.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/main/core/mcp/manager';
import type { ToolContext } from '../../../src/main/core/tools/types';
import { everythingServer, filesystemServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';
import { runTool, toolNamed } from './helpers';

// Configured for the server-everything process; get-env must never show it.
const SECRET = `sk-test-${Math.random().toString(36).slice(2)}-secret`;
// Set in Mino's own environment: a server must not inherit it.
const PARENT_ONLY = 'MINO_TEST_PARENT_ONLY_VARIABLE';

let projectDir: string;
let homeDir: string;
let manager: McpManager;
let ctx: ToolContext;

beforeAll(async () => {
  projectDir = await makeTempDir('project');
  homeDir = await makeTempDir('home');
  process.env[PARENT_ONLY] = 'inherited-by-mistake';
  await fs.writeFile(path.join(projectDir, 'big.txt'), 'y'.repeat(100 * 1024));
  manager = new McpManager({
    servers: [everythingServer('everything', { API_TOKEN: SECRET, SHORT: 'abc' }), filesystemServer(projectDir)],
    projectDir,
  });
  ctx = { projectDir, homeDir };
});

afterAll(async () => {
  delete process.env[PARENT_ONLY];
  await manager.close();
  await removeDirs([projectDir, homeDir]);
});

describe('stdio MCP servers', () => {
  it('offers every server tool as mcp_<server>__<tool>, of kind mcp, with the server input schema', async () => {
    const { tools, problems } = await manager.tools();
    expect(problems).toEqual([]);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['mcp_everything__echo', 'mcp_everything__get-sum', 'mcp_everything__get-env', 'mcp_files__read_text_file']));
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.kind).toBe('mcp');
    }
    const sum = await toolNamed(manager, 'mcp_everything__get-sum');
    expect(sum.jsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(sum.jsonSchema).not.toHaveProperty('$schema');
  });

  it('keeps kind mcp for tools the server marks readOnlyHint, so the hint cannot relax the decision', async () => {
    // server-everything annotates echo as read-only and not destructive.
    const echo = await toolNamed(manager, 'mcp_everything__echo');
    expect(echo.kind).toBe('mcp');
    expect(echo.target({ message: 'x' })).toEqual({});
  });

  it('gives the same tool objects on every call to tools()', async () => {
    const first = await manager.tools();
    const second = await manager.tools();
    expect(second.tools).toEqual(first.tools);
    expect(second.tools.every((tool, index) => tool === first.tools[index])).toBe(true);
  });

  it('calls echo and get-sum and passes their text on', async () => {
    const echo = await runTool(await toolNamed(manager, 'mcp_everything__echo'), { message: 'hello' }, ctx);
    expect(echo).toEqual({ status: 'completed', output: 'Echo: hello' });
    const sum = await runTool(await toolNamed(manager, 'mcp_everything__get-sum'), { a: 2, b: 40 }, ctx);
    expect(sum).toEqual({ status: 'completed', output: 'The sum of 2 and 40 is 42.' });
  });

  it('refuses arguments that are not an object, or do not fit the input schema, before anything is sent', async () => {
    const sum = await toolNamed(manager, 'mcp_everything__get-sum');
    expect(sum.validate(['a'])).toMatchObject({ ok: false, reason: expect.stringContaining('must be a JSON object') });
    expect(sum.validate('{"a":1}')).toMatchObject({ ok: false });
    const wrong = sum.validate({ a: 'one', b: 2 });
    expect(wrong).toMatchObject({ ok: false, reason: expect.stringContaining("do not match the tool's input schema") });
    expect(sum.validate({ a: 1, b: 2 })).toEqual({ ok: true, args: { a: 1, b: 2 } });
  });

  it('builds the confirmation without calling the server: server, command line, tool, arguments, warning', async () => {
    const echo = await toolNamed(manager, 'mcp_everything__echo');
    const long = 'z'.repeat(5000);
    const inspection = await echo.inspect({ message: long }, ctx);
    if (!inspection.ok) throw new Error('inspection failed');
    const fields = Object.fromEntries(inspection.confirmation.fields.map((field) => [field.label, field.value]));
    expect(inspection.confirmation.fields.map((field) => field.label)).toEqual(['Server', 'Destination', 'Tool', 'Arguments']);
    expect(inspection.confirmation.tool).toBe('mcp_everything__echo');
    expect(fields.Server).toBe('everything');
    expect(fields.Destination).toBe(`${process.execPath} ${everythingServer().args?.join(' ')}`);
    expect(fields.Tool).toBe('echo');
    expect(fields.Arguments).toContain('"message": "zzzz');
    expect(fields.Arguments).toContain('(5,000 characters, 5,000 bytes; in full in the preview)');
    expect(fields.Arguments.length).toBeLessThan(400);
    expect(inspection.confirmation.preview).toBe(JSON.stringify({ message: long }, null, 2));
    expect(inspection.confirmation.warning).toBe('Sends these arguments to the everything server, which runs with your account permissions.');
    expect(echo.denialMessage).toBe('The user did not approve this call. Do not retry without a new user request.');
    expect(JSON.stringify(inspection.confirmation)).not.toContain(SECRET);
  });

  it('redacts a configured env value from a result that prints the server environment', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_everything__get-env'), {}, ctx);
    expect(result.status).toBe('completed');
    expect(result.output).toContain('"API_TOKEN": "[redacted]"');
    expect(result.output).not.toContain(SECRET);
    // Values under four characters are left alone rather than redacted everywhere.
    expect(result.output).toContain('"SHORT": "abc"');
  });

  it('starts a server with its configured env over a minimal environment, not Mino’s own', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_everything__get-env'), {}, ctx);
    const env = JSON.parse(result.output) as Record<string, string>;
    expect(env.PATH).toBe(process.env.PATH);
    expect(env).not.toHaveProperty(PARENT_ONLY);
  });

  it('summarizes an image instead of passing its data', async () => {
    const result = await runTool(await toolNamed(manager, 'mcp_everything__get-tiny-image'), {}, ctx);
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/\[image: image\/png, [\d,]+ bytes; not shown\]/);
    expect(result.output).not.toContain('iVBORw0KGgo');
  });

  it('turns a result the server marks isError into a failed result', async () => {
    const read = await toolNamed(manager, 'mcp_files__read_text_file');
    const result = await runTool(read, { path: path.join(projectDir, 'absent.txt') }, ctx);
    expect(result.status).toBe('failed');
    expect(result.output).toMatch(/ENOENT|no such file/i);
  });

  it('cuts output over 64 KiB and says so', async () => {
    const read = await toolNamed(manager, 'mcp_files__read_text_file');
    const result = await runTool(read, { path: path.join(projectDir, 'big.txt') }, ctx);
    expect(result.status).toBe('completed');
    expect(result.output.startsWith('y'.repeat(1000))).toBe(true);
    expect(result.output).toContain('[Output cut: showing the first 65,536 bytes of 102,400 bytes.]');
    expect(Buffer.byteLength(result.output)).toBeLessThan(64 * 1024 + 200);
  });

  it('reports each server as connected, with its command line and without env values', async () => {
    await manager.tools();
    const status = await manager.status();
    expect(status.map(({ name, transport, state }) => ({ name, transport, state }))).toEqual([
      { name: 'everything', transport: 'stdio', state: 'connected' },
      { name: 'files', transport: 'stdio', state: 'connected' },
    ]);
    expect(status[1].destination).toContain('server-filesystem');
    expect(JSON.stringify(status)).not.toContain(SECRET);
  });
});
