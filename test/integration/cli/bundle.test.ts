// The built `mino` command (vite.cli.config.mts), as it ships: built into a
// folder of its own with no node_modules anywhere above it, then run against
// the loopback mock. Proves the dependencies are bundled in, and that the MCP
// client is a separate chunk loaded only when a server is configured.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { buildCli, type BuiltCli } from '../../support/builtCli';
import { probeServer } from '../../support/mcp/servers';

let cli: BuiltCli;

beforeAll(async () => {
  cli = await buildCli();
}, 120_000);

afterAll(async () => cli?.remove());

/**
 * Runs the built CLI with a preload that reports, at exit, which of the
 * bundle's own files were loaded, so a test can see whether a chunk was.
 */
async function runBuilt(fx: AgentFixture, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; loaded: string[] }> {
  const report = path.join(fx.home, 'loaded.json');
  const preload = path.join(fx.home, 'report-loaded.cjs');
  await fs.writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const child = spawn(process.execPath, ['--require', preload, cli.entry, ...args], { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const loaded = (JSON.parse(await fs.readFile(report, 'utf8')) as string[]).filter((file) => file.startsWith(cli.dir)).map((file) => path.relative(cli.dir, file));
  return { code, stdout, stderr, loaded };
}

describe('the built mino command', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('runs a turn from a folder without node_modules, without loading the MCP chunk when no server is configured', async () => {
    fx = await makeAgentFixture({ files: { 'a.txt': 'alpha\n' } });
    fx.server.enqueue({ calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'It says alpha.' });
    const run = await runBuilt(fx, ['exec', '--json', 'What does a.txt say?']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"status":"completed"');
    expect(run.stdout).toContain('It says alpha.');
    expect(run.loaded).toEqual(['mino.js']);
  });

  it('loads the MCP chunk when a server is configured, and offers its tools', async () => {
    fx = await makeAgentFixture();
    await writePrivateFile((await ensureMinoHome(fx.home)).mcp, JSON.stringify({ servers: [probeServer()] }));
    fx.server.enqueue({ text: 'Done.' });
    const run = await runBuilt(fx, ['exec', '--json', 'Hello']);
    expect(run.code).toBe(0);
    expect(run.loaded.some((file) => file.startsWith('chunks/'))).toBe(true);
    const tools = (fx.server.requests[0].body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(tools).toContain('mcp_probe__whoami');
  });
});
