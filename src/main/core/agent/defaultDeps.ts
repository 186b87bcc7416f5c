// The one place that assembles a session's dependencies from Mino's
// configuration, so the desktop app and `mino exec` run the same agent.
import { modelClientFor } from '../config/modelConfig';
import { loadSoul } from '../config/soul';
import { loadMcpConfig } from '../mcp/config';
import type { McpManager } from '../mcp/manager';
import { skillViewTool } from '../tools/skillView';
import { bashTool } from '../tools/bash';
import { fileTools } from '../tools/fileTools';
import type { AnyTool } from '../tools/types';
import type { ConversationDeps } from './conversation';
import type { Settings } from '../../../shared/settings';

export const BUILTIN_TOOLS: readonly AnyTool[] = [...fileTools, skillViewTool, bashTool];

export interface DepsOptions {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** Current settings (~/.mino/config.json over the defaults), read per turn so edits apply. */
  settings: () => Promise<Settings>;
  /** A key stored by the desktop app, if any. */
  storedApiKey?: () => Promise<string | null>;
  /** Who opens the sessions, as a second opener is told: "desktop window", "CLI". */
  owner?: string;
}

export interface SessionDeps {
  deps: ConversationDeps;
  /** Stops the session's MCP servers. */
  close(): Promise<void>;
}

/** Dependencies for one session: built-in tools, lazily connected MCP servers, SOUL and model settings. */
export function sessionDeps(options: DepsOptions): SessionDeps {
  // Read once per session; undefined until the first turn asks for tools.
  let mcp: { manager: McpManager | null; problems: string[] } | undefined;
  const externalTools = async (projectDir: string) => {
    if (!mcp) {
      const config = await loadMcpConfig(options.homeDir);
      // The MCP client (its SDK, a JSON Schema validator) is a large share of the code, and most runs
      // configure no server: it is loaded only when one is configured.
      const manager = config.servers.length > 0 ? new (await import('../mcp/manager')).McpManager({ servers: config.servers, projectDir }) : null;
      mcp = { manager, problems: config.problems };
    }
    const listed = mcp.manager ? await mcp.manager.tools() : { tools: [], problems: [] };
    return { tools: listed.tools, problems: [...mcp.problems, ...listed.problems] };
  };
  return {
    deps: {
      homeDir: options.homeDir,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      builtinTools: BUILTIN_TOOLS,
      instructions: () => loadSoul(options.homeDir),
      model: async () =>
        modelClientFor({
          settings: await options.settings(),
          env: options.env,
          storedApiKey: options.storedApiKey ? await options.storedApiKey() : null,
        }),
      externalTools,
      checkpointCapBytes: async () => (await options.settings()).checkpointCapMb * 1024 * 1024,
    },
    close: async () => {
      await mcp?.manager?.close();
    },
  };
}
