// Servers that fail: a command that does not exist, a server that never
// answers, one that dies mid-call, one that hangs on a call. Each gives the
// person a clear problem and the model an error result, and the rest of Mino
// keeps working.
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/main/core/mcp/manager';
import type { ToolContext } from '../../../src/main/core/tools/types';
import { probeServer, silentServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';
import { runTool, toolNamed } from './helpers';

const dirs: string[] = [];
const managers: McpManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await removeDirs(dirs.splice(0));
});

async function setup(options: Omit<ConstructorParameters<typeof McpManager>[0], 'projectDir'>): Promise<{ manager: McpManager; ctx: ToolContext }> {
  const projectDir = await makeTempDir('project');
  const homeDir = await makeTempDir('home');
  dirs.push(projectDir, homeDir);
  const manager = new McpManager({ ...options, projectDir });
  managers.push(manager);
  return { manager, ctx: { projectDir, homeDir } };
}

async function pidOf(manager: McpManager, ctx: ToolContext): Promise<number> {
  const result = await runTool(await toolNamed(manager, 'mcp_probe__whoami'), {}, ctx);
  expect(result.status).toBe('completed');
  return (JSON.parse(result.output) as { pid: number }).pid;
}

describe('MCP server failures', () => {
  it('reports a server whose command does not exist, and still offers the other servers’ tools', async () => {
    const { manager, ctx } = await setup({ servers: [{ name: 'ghost', command: 'mino-no-such-command-xyz' }, probeServer()] });
    const { tools, problems } = await manager.tools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['mcp_probe__crash', 'mcp_probe__hang', 'mcp_probe__whoami']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('MCP server "ghost" could not be started or reached');
    expect(problems[0]).toContain('the command "mino-no-such-command-xyz" was not found');
    expect(problems[0]).toContain('the rest of Mino keeps working');
    expect(await pidOf(manager, ctx)).toBeGreaterThan(0);
    const status = await manager.status();
    expect(status.find((entry) => entry.name === 'ghost')).toMatchObject({ state: 'failed', error: expect.stringContaining('was not found') });
    expect(status.find((entry) => entry.name === 'probe')).toMatchObject({ state: 'connected' });
  });

  it('gives up on a server that does not answer within the connect timeout', async () => {
    // Long enough for the probe to start on a busy machine; the silent server never answers at all.
    const { manager } = await setup({ servers: [silentServer(), probeServer()], connectTimeoutMs: 4000 });
    const { tools, problems } = await manager.tools();
    expect(tools.some((tool) => tool.name.startsWith('mcp_silent__'))).toBe(false);
    expect(tools.some((tool) => tool.name === 'mcp_probe__whoami')).toBe(true);
    expect(problems).toEqual([expect.stringContaining('MCP server "silent" could not be started or reached: no answer within 4 s')]);
    expect((await manager.status())[0]).toMatchObject({ name: 'silent', state: 'failed' });
  });

  it('tries a failed server again on the next tools() call', async () => {
    const { manager } = await setup({ servers: [silentServer()], connectTimeoutMs: 500 });
    expect((await manager.tools()).problems).toHaveLength(1);
    expect((await manager.tools()).problems).toHaveLength(1);
  });

  it('returns an error result when the server dies mid-call, and starts it again on the next call', async () => {
    const { manager, ctx } = await setup({ servers: [probeServer()] });
    const firstPid = await pidOf(manager, ctx);
    const crash = await runTool(await toolNamed(manager, 'mcp_probe__crash'), {}, ctx);
    expect(crash.status).toBe('error');
    expect(crash.output).toContain('The probe MCP server did not complete the call: the server closed the connection');
    expect(crash.output).toContain('you may try again later');
    const secondPid = await pidOf(manager, ctx);
    expect(secondPid).not.toBe(firstPid);
  });

  it('returns an error result when a call outlasts the call timeout, and uses a fresh server next time', async () => {
    const { manager, ctx } = await setup({ servers: [probeServer()], callTimeoutMs: 800 });
    const firstPid = await pidOf(manager, ctx);
    const hang = await runTool(await toolNamed(manager, 'mcp_probe__hang'), {}, ctx);
    expect(hang).toEqual({ status: 'error', output: expect.stringContaining('no answer within 0.8 s') });
    expect(hang.output).toContain('you may try again later');
    expect(await pidOf(manager, ctx)).not.toBe(firstPid);
  });

  it('stops waiting when the turn is stopped through ctx.signal', async () => {
    const { manager, ctx } = await setup({ servers: [probeServer()] });
    const hang = await toolNamed(manager, 'mcp_probe__hang');
    const controller = new AbortController();
    const running = hang.execute({}, undefined, { ...ctx, signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ status: 'error', output: 'The call was stopped before the server answered.' });
    // The server itself is unharmed.
    expect(await pidOf(manager, ctx)).toBeGreaterThan(0);
  });

  it('runs a stdio server in the project directory unless the config says otherwise', async () => {
    const { manager, ctx } = await setup({ servers: [probeServer()] });
    const result = await runTool(await toolNamed(manager, 'mcp_probe__whoami'), {}, ctx);
    expect((JSON.parse(result.output) as { cwd: string }).cwd).toBe(ctx.projectDir);
  });

  it('redacts configured env values from the server output quoted in a startup error', async () => {
    const secret = 'tok-startup-secret-value';
    const { manager } = await setup({
      servers: [{ name: 'leaky', command: process.execPath, args: ['-e', 'console.error("my token is " + process.env.TOKEN); process.exit(1)'], env: { TOKEN: secret } }],
    });
    const { problems } = await manager.tools();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('my token is [redacted]');
    expect(problems[0]).not.toContain(secret);
    expect(JSON.stringify(await manager.status())).not.toContain(secret);
  });

  it('answers a call to a server that cannot start with an error result for the model', async () => {
    const { manager, ctx } = await setup({ servers: [probeServer('probe', { command: process.execPath })] });
    const whoami = await toolNamed(manager, 'mcp_probe__whoami');
    await manager.close();
    const result = await whoami.execute({}, undefined, ctx);
    expect(result.status).toBe('error');
    expect(result.output).toContain('MCP server "probe" is closed.');
  });
});
