// The MCP servers of one session. Servers are contacted on the first tools()
// call, not before; one that fails is reported and the others keep working.
// The tool list does not depend on the permission mode: the decision about
// each call is the policy's, made per call.
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../tools/types';
import type { McpServerConfig } from './config';
import { McpConnection, type ConnectionState } from './connection';
import { describeDestination, transportKind, type McpTransportKind } from './destination';
import { makeMcpTool } from './mcpTool';
import { mcpToolName } from './toolName';

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CLIENT_INFO: Implementation = { name: 'mino-desktop', version: '0.1.0' };

export interface McpManagerOptions {
  servers: McpServerConfig[];
  /** Default working directory of stdio servers; a relative "cwd" is taken from here. */
  projectDir: string;
  /** Start (or reach), initialize and list tools, per server. */
  connectTimeoutMs?: number;
  /** One tool call. */
  callTimeoutMs?: number;
  clientInfo?: Implementation;
}

export interface McpServerStatus {
  name: string;
  transport: McpTransportKind;
  /** The command line or the URL's origin and path: never env, headers or URL credentials. */
  destination: string;
  state: ConnectionState;
  error?: string;
  /** How many tools the server listed, once it has. */
  toolCount?: number;
}

export class McpManager {
  private readonly connections: McpConnection[];
  /** Tools per server, kept once listed, so the list stays the same for the whole session. */
  private readonly listed = new Map<McpConnection, AnyTool[]>();
  /** Why tools a server listed cannot be offered (their names do not fit the grammar), per server. */
  private readonly refused = new Map<McpConnection, string[]>();

  constructor(options: McpManagerOptions) {
    const connectionOptions = {
      projectDir: options.projectDir,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    };
    this.connections = options.servers.map((server) => new McpConnection(server, connectionOptions));
  }

  /**
   * Every server's tools as mcp_<server>__<tool>. A server not yet listed is
   * contacted now; one that fails gives a problem line (for the person) and
   * is tried again on the next call.
   */
  async tools(): Promise<{ tools: AnyTool[]; problems: string[] }> {
    const failures = await this.listPending();
    const { tools, leftOut } = this.offered();
    return { tools, problems: [...failures, ...leftOut] };
  }

  /**
   * For Settings: contacts every server not yet listed, then reports each
   * one's state. The problems are those no single server's state shows (tools
   * left out for their names); a failure is in its server's `error`.
   */
  async check(): Promise<{ servers: McpServerStatus[]; problems: string[] }> {
    await this.listPending();
    return { servers: await this.status(), problems: this.offered().leftOut };
  }

  /** Lists the tools of every server not yet listed; one problem line per server that fails. */
  private async listPending(): Promise<string[]> {
    const problems: string[] = [];
    await Promise.all(
      this.connections
        .filter((connection) => !this.listed.has(connection))
        .map(async (connection) => {
          try {
            const definitions = await connection.listTools();
            const tools: AnyTool[] = [];
            const refused: string[] = [];
            for (const definition of definitions) {
              if (connection.redact(definition.name) !== definition.name) {
                // A redacted name could not be called back, and the real one would show the secret.
                refused.push(
                  `The tool "${connection.redact(definition.name)}" of the ${connection.server.name} MCP server is left out: its name contains a credential configured for this server in ~/.mino/mcp.json.`,
                );
                continue;
              }
              const named = mcpToolName(connection.server.name, definition.name);
              if (named.ok) tools.push(makeMcpTool(connection, definition, named.name));
              else refused.push(connection.redact(named.reason));
            }
            this.listed.set(connection, tools);
            this.refused.set(connection, refused);
          } catch (error) {
            problems.push(`${(error as Error).message} Its tools are unavailable for now; the rest of Mino keeps working.`);
          }
        }),
    );
    return problems;
  }

  /** The tools offered, and one line per tool left out (a name the grammar refuses, or one already taken). */
  private offered(): { tools: AnyTool[]; leftOut: string[] } {
    const tools: AnyTool[] = [];
    const leftOut: string[] = [];
    const owners = new Map<string, string>();
    // Config order, then the server's order: the same servers always give the same winners.
    for (const connection of this.connections) {
      leftOut.push(...(this.refused.get(connection) ?? []));
      for (const tool of this.listed.get(connection) ?? []) {
        const owner = owners.get(tool.name);
        if (owner !== undefined) {
          leftOut.push(
            `MCP tool names collide: a tool of the ${connection.server.name} server would be offered as ${tool.name}, which ${owner} already uses. It is left out; rename one of the servers in ~/.mino/mcp.json.`,
          );
          continue;
        }
        owners.set(tool.name, `the ${connection.server.name} server`);
        tools.push(tool);
      }
    }
    return { tools, leftOut };
  }

  /** For Settings: where each server is and whether it is connected; no secrets. */
  async status(): Promise<McpServerStatus[]> {
    return this.connections.map((connection) => {
      const listed = this.listed.get(connection);
      return {
        name: connection.server.name,
        transport: transportKind(connection.server),
        destination: describeDestination(connection.server),
        state: connection.state,
        ...(connection.error !== undefined ? { error: connection.error } : {}),
        ...(listed !== undefined ? { toolCount: listed.length } : {}),
      };
    });
  }

  /** Stops every stdio server and drops every HTTP session. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
