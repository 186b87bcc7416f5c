// A real temp home and project, the loopback mock model service, and the
// same session dependencies the app and the CLI use. Only the model service
// is fake.
import type { Confirmation } from '../../src/shared/domain';
import type { Approver, ApprovalRequest } from '../../src/main/core/agent/approver';
import type { ConversationDeps } from '../../src/main/core/agent/conversation';
import { sessionDeps } from '../../src/main/core/agent/defaultDeps';
import type { TurnEvent } from '../../src/main/core/agent/events';
import { ensureMinoHome, writePrivateFile } from '../../src/main/core/config/minoHome';
import { DEFAULT_SETTINGS } from '../../src/main/core/config/settings';
import type { Settings } from '../../src/shared/settings';
import type { McpServerConfig } from '../../src/main/core/mcp/config';
import type { AnyTool } from '../../src/main/core/tools/types';
import { makeTempHome } from './tempHome';
import { startMockResponsesServer, type MockResponsesServer } from './mockResponsesServer';

export interface AgentFixture {
  home: string;
  project: string;
  server: MockResponsesServer;
  env: NodeJS.ProcessEnv;
  deps: ConversationDeps;
  /** The settings the sessions read, per turn and per call: a test may change them (turn the sandbox off) mid-session. */
  settings: Settings;
  /** Path inside the project. */
  file(rel: string): string;
  cleanup(): Promise<void>;
}

export interface AgentFixtureOptions {
  files?: Record<string, string>;
  extraTools?: AnyTool[];
  /** Written to ~/.mino/mcp.json, as a person would configure them. */
  mcpServers?: McpServerConfig[];
  /** Settings over the defaults (a small context window, reasoning on, ...); the sessions read them per turn. */
  settings?: Partial<Settings>;
  /** The model name requests carry (MINO_MODEL); default mock-model. */
  model?: string;
}

export async function makeAgentFixture(options: AgentFixtureOptions = {}): Promise<AgentFixture> {
  const temp = await makeTempHome({ prefix: 'agent', files: options.files });
  const { home, project } = temp;
  if (options.mcpServers) await writePrivateFile((await ensureMinoHome(home)).mcp, JSON.stringify({ servers: options.mcpServers }, null, 2));
  const server = await startMockResponsesServer();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: 'test-key', MINO_MODEL: options.model ?? 'mock-model' };
  const settings: Settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const { deps: baseDeps, close } = sessionDeps({ homeDir: home, env, settings: async () => settings });
  const deps: ConversationDeps = options.extraTools
    ? { ...baseDeps, externalTools: async () => ({ tools: options.extraTools ?? [], problems: [] }) }
    : baseDeps;
  let cleaned = false;
  return {
    home,
    project,
    server,
    env,
    deps,
    settings,
    file: temp.file,
    // Idempotent, so an afterEach may run it again for a test that made no fixture of its own.
    cleanup: async () => {
      if (cleaned) return;
      cleaned = true;
      await close();
      await server.close();
      await temp.cleanup();
    },
  };
}

/** An approver that answers by tool name and remembers every ask it saw. */
export function recordingApprover(answer: (request: ApprovalRequest) => boolean = () => false): Approver & { asks: ApprovalRequest[] } {
  const asks: ApprovalRequest[] = [];
  return {
    asks,
    approve: async (request) => {
      asks.push(request);
      return answer(request);
    },
  };
}

export function eventRecorder(): { events: TurnEvent[]; onEvent: (event: TurnEvent) => void; of<T extends TurnEvent['type']>(type: T): Extract<TurnEvent, { type: T }>[] } {
  const events: TurnEvent[] = [];
  return {
    events,
    onEvent: (event) => events.push(event),
    of: (type) => events.filter((e) => e.type === type) as never,
  };
}

export function field(confirmation: Confirmation, label: string): string | undefined {
  return confirmation.fields.find((f) => f.label === label)?.value;
}

/** The model-facing outputs (parsed) the mock server received in a request body. */
export function outputsIn(body: { input?: Array<{ type: string; call_id?: string; output?: string }> }): Array<{ call_id: string; status: string; output: string }> {
  return (body.input ?? [])
    .filter((item) => item.type === 'function_call_output')
    .map((item) => ({ call_id: item.call_id ?? '', ...(JSON.parse(item.output ?? '{}') as { status: string; output: string }) }));
}
