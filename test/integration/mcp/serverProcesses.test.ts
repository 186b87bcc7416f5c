// What a stdio server does beyond answering: processes it starts end with
// the session (the whole process group is ended, not just the server), and a
// result larger than Mino reads is reported as too large, not as a server
// that went away.
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/main/core/mcp/manager';
import type { ToolContext } from '../../../src/main/core/tools/types';
import { familyServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';
import { runTool, toolNamed } from './helpers';

const dirs: string[] = [];
const managers: McpManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await removeDirs(dirs.splice(0));
});

async function setup(callTimeoutMs = 30_000): Promise<{ manager: McpManager; ctx: ToolContext }> {
  const projectDir = await makeTempDir('project');
  const homeDir = await makeTempDir('home');
  dirs.push(projectDir, homeDir);
  const manager = new McpManager({ servers: [familyServer()], projectDir, callTimeoutMs });
  managers.push(manager);
  return { manager, ctx: { projectDir, homeDir } };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(process.platform === 'win32')('MCP stdio server processes', () => {
  it('ends the processes a server started when the session closes, not just the server', async () => {
    const { manager, ctx } = await setup();
    const result = await runTool(await toolNamed(manager, 'mcp_family__spawn_child'), {}, ctx);
    expect(result.status).toBe('completed');
    const { pid } = JSON.parse(result.output) as { pid: number };
    expect(alive(pid)).toBe(true);
    await manager.close();
    // close() waits for the group to be signalled; the child may need a moment to be reaped by init.
    const deadline = Date.now() + 5000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive(pid)).toBe(false);
  });

  it('reports a result over 10 MiB as too large, not as the server closing the connection', async () => {
    // Writing and reading 11 MiB through a pipe took over 30 s at a load of 10 on two cores, and the
    // call's own answer timeout then spoke first: this is about the size, so the timeout is kept out of the way.
    const { manager, ctx } = await setup(150_000);
    const result = await runTool(await toolNamed(manager, 'mcp_family__huge'), { mib: 11 }, ctx);
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/sent a message larger than 10 MiB, the most Mino reads from an MCP server/);
    expect(result.output).not.toMatch(/the server closed the connection/);
    // A result under the cap still arrives whole.
    const fine = await runTool(await toolNamed(manager, 'mcp_family__huge'), { mib: 0.01 }, ctx);
    expect(fine.status).toBe('completed');
  }, 300_000);
});
