// The one place that assembles a session's dependencies from Mino's
// configuration, so the desktop app and `mino exec` run the same agent.
import * as os from 'node:os';
import { modelClientFor, serviceNamed, type ServiceChoice } from '../config/modelConfig';
import { readSettingsWithServices } from '../config/settings';
import { serviceKeyVariables, type ServiceSettings } from '../config/services';
import { loadSoul } from '../config/soul';
import { loadMcpConfig } from '../mcp/config';
import type { McpManager } from '../mcp/manager';
import { credentialValues } from '../mcp/redact';
import { sandboxAvailability, type SandboxAvailability } from '../sandbox/availability';
import { skillViewTool } from '../tools/skillView';
import { updatePlanTool } from '../tools/updatePlan';
import { bashTool, createBashTool } from '../tools/bash';
import { sharedChangeCapture } from '../checkpoints/commandCapture';
import { fileTools } from '../tools/fileTools';
import type { AnyTool } from '../tools/types';
import type { ConversationDeps } from './conversationDeps';
import type { ServiceTurnSettings } from './turnSetup';
import type { Settings } from '../../../shared/settings';
import { sandboxReadablePaths } from '../../../shared/sandboxReadable';

/** The built-in tools as the pure validation of a saved session sees them; a session's own bash reads its settings. */
export const BUILTIN_TOOLS: readonly AnyTool[] = [...fileTools, skillViewTool, bashTool, updatePlanTool];

/** Where the sandbox is turned off in Settings, that is the reason commands are not sandboxed. */
export const SANDBOX_TURNED_OFF = 'the sandbox is turned off in Settings ("bashSandbox": false in ~/.mino/config.json)';

/** Whether this session's commands run sandboxed: the person's setting first, then what the machine can do. */
export async function commandSandbox(settings: () => Promise<Settings>): Promise<SandboxAvailability> {
  if ((await settings()).bashSandbox === false) return { available: false, reason: SANDBOX_TURNED_OFF };
  return sandboxAvailability();
}

export interface DepsOptions {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  /** Current settings (~/.mino/config.json over the defaults), read per turn so edits apply. */
  settings: () => Promise<Settings>;
  /** The model services (~/.mino/config.json's "services" and "service"), read per turn; default: read from the file. */
  services?: () => Promise<ServiceSettings>;
  /**
   * The service and model this session's turns use (mino exec --service and --model, or what the session's log
   * recorded), asked per turn so a choice made between turns applies; what it leaves out is the default service's.
   */
  choice?: () => ServiceChoice;
  /** A key stored by the desktop app for the `default` service, if any. */
  storedApiKey?: () => Promise<string | null>;
  /** The key the desktop app stored for a listed service, by its name; null when none. */
  storedServiceKey?: (service: string) => Promise<string | null>;
  /** The model requests' transport (the desktop's net.fetch); default environmentFetch. */
  fetch?: typeof fetch;
  /** Who opens the sessions, as a second opener is told: "desktop window", "CLI". */
  owner?: string;
  /** Notices already given, so each is said once; default: once per process (the app, or one `mino exec`). */
  told?: Set<string>;
}

const toldThisProcess = new Set<string>();

/** The notice that commands run with the person's full rights, and why. */
export function notSandboxedNotice(reason: string): string {
  return `Bash commands are not sandboxed: ${reason}. They run with your account's permissions, asking as the permission mode says.`;
}

/**
 * The person's sandbox-readable folders as absolute paths, `~/` resolved in the
 * home Mino uses and in the account's own (the sandbox empties both); an entry
 * with a problem (the settings file says which) is left out.
 */
export function readableFolders(entries: readonly string[], homeDir: string): string[] {
  return sandboxReadablePaths(entries, [...new Set([homeDir, os.homedir()])]);
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
  const services = options.services ?? (async () => (await readSettingsWithServices(options.homeDir)).services);
  const choice = options.choice ?? ((): ServiceChoice => ({}));
  const bash = createBashTool({
    sandbox: () => commandSandbox(options.settings),
    // Read per call, so a server configured since is covered; its problems are reported by the MCP manager.
    // MCP servers' credentials, and the keys of model services named by their apiKeyEnv: no command sees either.
    credentials: async () => [
      ...(await loadMcpConfig(options.homeDir)).servers.flatMap(credentialValues),
      ...serviceKeyVariables(await services()).flatMap((name) => options.env[name] ?? []),
    ],
    // Read per call too, so a folder added in Settings is readable by the next command.
    sandboxReadable: async () => readableFolders((await options.settings()).sandboxReadable, options.homeDir),
    // One watch per project for the whole process, shared by its sessions: what a sandboxed command changes is captured for undo.
    changes: sharedChangeCapture,
  });
  return {
    deps: {
      homeDir: options.homeDir,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      builtinTools: BUILTIN_TOOLS.map((tool) => (tool.name === bash.name ? bash : tool)),
      instructions: () => loadSoul(options.homeDir),
      turnSettings: async (): Promise<ServiceTurnSettings> => {
        const settings = await options.settings();
        const service = serviceNamed(choice().service, { settings, services: await services(), env: options.env });
        return {
          service: service.name,
          model: choice().model?.trim() || service.model,
          // A service that states its window is right for its models; the setting is for the rest.
          contextWindow: service.contextWindow ?? settings.contextWindow,
          compactAt: settings.compactThreshold / 100,
          reasoning: settings.reasoning,
          reasoningEffort: settings.reasoningEffort,
          // Only the person can say a model reads no images (images/imageSupport.ts); unmarked services are sent them.
          images: service.images !== false,
        };
      },
      model: async () =>
        modelClientFor(
          {
            settings: await options.settings(),
            services: await services(),
            env: options.env,
            storedApiKey: options.storedApiKey ? await options.storedApiKey() : null,
            ...(options.storedServiceKey ? { storedServiceKey: options.storedServiceKey } : {}),
            ...(options.fetch ? { fetch: options.fetch } : {}),
          },
          choice(),
        ),
      externalTools,
      checkpointCapBytes: async () => (await options.settings()).checkpointCapMb * 1024 * 1024,
      notices: async () => {
        const sandbox = await commandSandbox(options.settings);
        if (sandbox.available) return [];
        const notice = notSandboxedNotice(sandbox.reason);
        const told = options.told ?? toldThisProcess;
        if (told.has(notice)) return [];
        told.add(notice);
        return [notice];
      },
    },
    close: async () => {
      await mcp?.manager?.close();
    },
  };
}
