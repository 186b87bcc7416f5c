// Settings' MCP section through a real MinoService: the configured servers,
// whether they connect, and never their credentials. Real temp HOME and
// project, real stdio server processes, a real loopback HTTP server.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureMinoHome, writePrivateFile } from '../../../src/main/core/config/minoHome';
import type { McpServerConfig } from '../../../src/main/core/mcp/config';
import { clientId } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import { MinoService } from '../../../src/main/service/minoService';
import type { McpStatus } from '../../../src/shared/ipc';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';
import { startTestHttpServer, type TestHttpServer } from '../../support/mcp/httpServer';
import { everythingServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';

const ENV_SECRET = `sk-env-${Math.random().toString(36).slice(2)}-secret`;
const LEAKED_SECRET = `sk-leak-${Math.random().toString(36).slice(2)}-secret`;
const HEADER_SECRET = `hdr-${Math.random().toString(36).slice(2)}-secret`;
const QUERY_SECRET = `qk-${Math.random().toString(36).slice(2)}-secret`;
const CLIENT = clientId('settings-window');

let home: string;
let project: string;
let service: MinoService;
let picker: FakeFolderPicker;
let remote: TestHttpServer;

/**
 * Not an MCP server: it leaves a file named "started" in its working
 * directory, prints its configured token to stderr and exits, so a test can
 * see whether it was started, where, and whether the token got out.
 */
function leakyServer(): McpServerConfig {
  const script = "require('fs').writeFileSync('started', ''); console.error('token ' + process.env.LEAKY_TOKEN); process.exit(2)";
  return { name: 'leaky', command: process.execPath, args: ['-e', script], env: { LEAKY_TOKEN: LEAKED_SECRET } };
}

async function writeMcpConfig(servers: unknown[]): Promise<void> {
  await writePrivateFile((await ensureMinoHome(home)).mcp, JSON.stringify({ servers }, null, 2));
}

async function getMcpStatus(): Promise<McpStatus> {
  const result = await dispatchInvoke(service, CLIENT, 'mcp:status', undefined);
  if (!result.ok) throw new Error(result.error);
  return result.value as McpStatus;
}

function expectNoSecrets(status: McpStatus): void {
  const text = JSON.stringify(status);
  for (const secret of [ENV_SECRET, LEAKED_SECRET, HEADER_SECRET, QUERY_SECRET]) expect(text).not.toContain(secret);
}

beforeEach(async () => {
  home = await makeTempDir('home');
  project = await makeTempDir('project');
  remote = await startTestHttpServer();
  picker = new FakeFolderPicker();
  service = new MinoService({ homeDir: home, appName: 'Mino', appVersion: '0.0.0-test', secrets: new MemorySecretStore(), pickFolder: picker.pick, env: { HOME: home } });
  service.attachClient(CLIENT, () => undefined);
  await writeMcpConfig([
    everythingServer('everything', { API_TOKEN: ENV_SECRET }),
    leakyServer(),
    { name: 'ghost', command: 'mino-no-such-command-xyz', env: { API_TOKEN: ENV_SECRET } },
    { name: 'remote', url: `${remote.url}?key=${QUERY_SECRET}`, headers: { Authorization: `Bearer ${HEADER_SECRET}` } },
    { name: 'broken', command: 'x', shell: true },
  ]);
});

afterEach(async () => {
  await service.close();
  await remote.close();
  await removeDirs([home, project]);
});

describe('mcp:status', () => {
  it('with a project open, starts each server in the project, reports connected ones with their tool count and failed ones with the reason', async () => {
    picker.willPick(project);
    expect(await dispatchInvoke(service, CLIENT, 'projects:pick', undefined)).toMatchObject({ ok: true, value: { opened: true } });

    const status = await getMcpStatus();
    expect(status.configPath).toBe(path.join(home, '.mino', 'mcp.json'));
    expect(status.problems).toEqual([expect.stringContaining('server 5 ("broken"): unknown field "shell". This server is skipped')]);
    expect(status.servers.map(({ name, transport, state }) => ({ name, transport, state }))).toEqual([
      { name: 'everything', transport: 'stdio', state: 'connected' },
      { name: 'leaky', transport: 'stdio', state: 'failed' },
      { name: 'ghost', transport: 'stdio', state: 'failed' },
      { name: 'remote', transport: 'http', state: 'connected' },
    ]);
    const [everything, leaky, ghost, http] = status.servers;
    expect(everything.toolCount).toBeGreaterThan(5);
    expect(everything.destination).toContain('server-everything');
    expect(http).toMatchObject({ destination: remote.url, toolCount: 5 });
    expect(ghost.error).toContain('the command "mino-no-such-command-xyz" was not found');
    expect(ghost.toolCount).toBeUndefined();
    // The stdio server ran in the project directory, and what it printed reached Settings only redacted.
    await expect(fs.access(path.join(project, 'started'))).resolves.toBeUndefined();
    expect(leaky.error).toContain('token [redacted]');
    expectNoSecrets(status);
  });

  it('stops every server it started once the check is done', async () => {
    picker.willPick(project);
    await dispatchInvoke(service, CLIENT, 'projects:pick', undefined);
    const marker = `--mino-status-check-${Math.random().toString(36).slice(2)}`;
    const everything = everythingServer();
    await writeMcpConfig([{ ...everything, args: [...(everything.args ?? []), marker] }]);

    const status = await getMcpStatus();
    expect(status.servers[0].state).toBe('connected');
    expect(await processesWith(marker)).toEqual([]);
  });

  it('without a project, lists the servers as not connected and starts none of them', async () => {
    const status = await getMcpStatus();
    expect(status.servers).toEqual([
      { name: 'everything', transport: 'stdio', destination: expect.stringContaining('server-everything'), state: 'not_connected' },
      { name: 'leaky', transport: 'stdio', destination: expect.stringContaining('LEAKY_TOKEN'), state: 'not_connected' },
      { name: 'ghost', transport: 'stdio', destination: 'mino-no-such-command-xyz', state: 'not_connected' },
      { name: 'remote', transport: 'http', destination: remote.url, state: 'not_connected' },
    ]);
    expect(status.problems).toHaveLength(1);
    expect(remote.calls).toEqual([]);
    await expect(fs.access(path.join(home, 'started'))).rejects.toThrow();
    await expect(fs.access(path.join(process.cwd(), 'started'))).rejects.toThrow();
    expectNoSecrets(status);
  });

  it('reports no servers and no problems when ~/.mino/mcp.json does not exist', async () => {
    await fs.rm(path.join(home, '.mino', 'mcp.json'));
    expect(await getMcpStatus()).toEqual({ configPath: path.join(home, '.mino', 'mcp.json'), problems: [], servers: [] });
  });

  it('refuses any input, like every request that takes none', async () => {
    expect(await dispatchInvoke(service, CLIENT, 'mcp:status', { projectDir: '/' })).toMatchObject({ ok: false, error: expect.stringContaining('takes no input') });
  });
});

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await fs.readFile(path.join('/proc', entry, 'cmdline'), 'utf8');
      if (cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
