// Settings' view of the MCP servers in ~/.mino/mcp.json: each server's
// destination and whether it connects, never its credentials. Servers are
// started only for an open project, in that project's directory, and stopped
// as soon as they have been checked; without a project nothing is started.
import type { McpStatus } from '../../../shared/ipc';
import { minoPaths } from '../../core/config/minoHome';
import { loadMcpConfig } from '../../core/mcp/config';
import { describeDestination, transportKind } from '../../core/mcp/destination';
import { McpManager } from '../../core/mcp/manager';

export async function mcpStatus(homeDir: string, projectDir: string | null): Promise<McpStatus> {
  const configPath = minoPaths(homeDir).mcp;
  const config = await loadMcpConfig(homeDir);
  if (projectDir === null) {
    // A stdio server would run in the home directory: not worth the risk just to show a status.
    const servers = config.servers.map((server) => ({
      name: server.name,
      transport: transportKind(server),
      destination: describeDestination(server),
      state: 'not_connected' as const,
    }));
    return { configPath, problems: config.problems, servers };
  }
  const manager = new McpManager({ servers: config.servers, projectDir });
  try {
    const checked = await manager.check();
    return { configPath, problems: [...config.problems, ...checked.problems], servers: checked.servers };
  } finally {
    await manager.close();
  }
}
