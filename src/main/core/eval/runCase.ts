// One run of one case, through exactly what a session uses: a fresh home
// (~/.mino inside it) and a fresh project, settings read from that home, the
// session opened by the one session host (openSession, as `mino exec` does),
// the same Conversation, decision and limits, asks answered by the case's
// approver. The only addition is the relay in front of the model service.
// What scoring needs is saved beside the run (runRecord.ts); nothing is
// scored here.
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { TurnEventListener } from '../agent/events';
import { openSession, type HostedSession } from '../agent/sessionHost';
import { ensureMinoHome, minoPaths, writePrivateFile } from '../config/minoHome';
import { readSettingsWithServices } from '../config/settings';
import { errorText } from '../log/log';
import { environmentFetch } from '../model/environmentFetch';
import { checkProjectDir } from '../projects/checkProject';
import { DEFAULT_SERVICE_NAME, type ServiceConfig } from '../../../shared/modelServices';
import type { Settings } from '../../../shared/settings';
import { caseApprover } from './caseApprover';
import { fileDigests, makeCaseProject } from './caseProject';
import { caseTurns, type EvalCase } from './caseSchema';
import { startRelay, type Relay } from './relay';
import { RUN_FILES, writeRunRecord, type RunRecord, type TurnEnd } from './runRecord';
import { startScriptedModel, type ScriptedModel } from './scriptedModel';

/** The configured service a live case asks, with the person's settings its runs use. */
export interface LiveTarget {
  service: ServiceConfig;
  settings: Settings;
}

export interface RunCaseOptions {
  evalCase: EvalCase;
  /** The case file's folder, where a fixture is found. */
  caseDir: string;
  /** 1-based. */
  run: number;
  /** A new folder for this run: home, project and what is saved. */
  runDir: string;
  /** The environment the command started with (it holds a live service's key). */
  env: NodeJS.ProcessEnv;
  /** The person's own home: its SOUL.md is the one the runs use, since the instructions are what a case tests. */
  personHome: string;
  /** Required for a live case. */
  live: LiveTarget | null;
  onEvent?: TurnEventListener;
}

/** The session owner a run's lock names, as a second opener (a desktop window on the run's session) is told. */
export const EVAL_OWNER = 'mino eval';

/** Name of the service a scripted run's settings list: the relay in front of the scripted model. */
const SCRIPTED_SERVICE = 'scripted';

/** Runs the case once and saves its record; a run that could not be carried out saves why, and is scored as failed. */
export async function runCase(options: RunCaseOptions): Promise<RunRecord> {
  const { runDir, evalCase } = options;
  const homeDir = path.join(runDir, RUN_FILES.home);
  const projectDir = path.join(runDir, RUN_FILES.project);
  await fs.mkdir(homeDir, { recursive: true });
  const record: RunRecord = { case: evalCase, run: options.run, model: evalCase.model, before: {}, turns: [] };
  let model: ScriptedModel | null = null;
  let relay: Relay | null = null;
  try {
    await makeCaseProject(projectDir, evalCase.project, options.caseDir);
    record.before = await fileDigests(projectDir);
    if (evalCase.model === 'live' && options.live === null) throw new Error('This case asks the live model service, and none is configured for this run.');
    model = evalCase.model === 'scripted' ? await startScriptedModel(evalCase.script ?? []) : null;
    const upstream = model ? model.baseURL : options.live!.service.baseUrl;
    relay = await startRelay(upstream, path.join(runDir, RUN_FILES.requests), environmentFetch(options.env));
    const service = await writeRunHome(homeDir, options, relay.baseURL);
    await askTurns(record, options, { homeDir, projectDir, service });
  } catch (error) {
    record.error = errorText(error);
  } finally {
    await relay?.close();
    await model?.close();
  }
  await writeRunRecord(runDir, record);
  return record;
}

/**
 * The run's ~/.mino: config.json naming the relay as the service (a live run keeps the person's settings and the
 * service's name, protocol, model and key variable), mcp.json when the case lists servers, the person's SOUL.md.
 * Returns the name of the service the session uses.
 */
async function writeRunHome(homeDir: string, options: RunCaseOptions, relayURL: string): Promise<string> {
  const paths = await ensureMinoHome(homeDir);
  const { evalCase, live } = options;
  let config: Record<string, unknown>;
  let service: string;
  if (live === null || evalCase.model === 'scripted') {
    service = SCRIPTED_SERVICE;
    config = { ...evalCase.settings, services: [{ name: service, protocol: 'responses', baseUrl: relayURL, model: 'scripted' }], service };
  } else if (live.service.name === DEFAULT_SERVICE_NAME) {
    // The `default` service is made of the baseUrl and model settings; its key stays OPENAI_API_KEY.
    service = DEFAULT_SERVICE_NAME;
    config = { ...live.settings, ...evalCase.settings, baseUrl: relayURL, model: live.service.model };
  } else {
    service = live.service.name;
    config = { ...live.settings, ...evalCase.settings, services: [{ ...live.service, baseUrl: relayURL }], service };
  }
  await writePrivateFile(paths.config, `${JSON.stringify(config, null, 2)}\n`);
  if (evalCase.mcp) await writePrivateFile(paths.mcp, `${JSON.stringify({ servers: evalCase.mcp.map(withInstalledPaths) }, null, 2)}\n`);
  const soul = await fs.readFile(minoPaths(options.personHome).soul, 'utf8').catch(() => null);
  if (soul !== null) await writePrivateFile(paths.soul, soul);
  return service;
}

/**
 * "{node}" in an MCP server's command or arguments is the Node running Mino, and "{package:NAME}" the script of
 * installed package NAME's first bin, so a case names no install path. A package that is not installed stops the
 * run, saying which.
 */
function withInstalledPaths(server: NonNullable<EvalCase['mcp']>[number]): NonNullable<EvalCase['mcp']>[number] {
  if (!('command' in server)) return server;
  const put = (text: string) => text.replaceAll('{node}', process.execPath).replace(/\{package:([^}]+)\}/gu, (_all, name: string) => packageBin(name));
  return { ...server, command: put(server.command), ...(server.args ? { args: server.args.map(put) } : {}) };
}

function packageBin(name: string): string {
  const require = createRequire(__filename);
  let manifestPath: string;
  try {
    manifestPath = require.resolve(`${name}/package.json`);
  } catch (error) {
    throw new Error(`This case starts the MCP server of package ${name}, which is not installed here (${(error as Error).message.split('\n')[0]}). Install the repository's dev dependencies (npm install), or leave the server out of the case.`, { cause: error });
  }
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`Package ${name} has no "bin" to start as an MCP server.`);
  return path.join(path.dirname(manifestPath), bin);
}

/**
 * The run's environment: the command's, with HOME the run's home, the relay reached directly (never through a
 * proxy), and the variables that would move the `default` service off the relay left out.
 */
function runEnv(env: NodeJS.ProcessEnv, homeDir: string): NodeJS.ProcessEnv {
  const { OPENAI_BASE_URL: _baseUrl, MINO_MODEL: _model, ...rest } = env;
  const noProxy = [env.NO_PROXY ?? env.no_proxy, '127.0.0.1', 'localhost'].filter(Boolean).join(',');
  return { ...rest, HOME: homeDir, NO_PROXY: noProxy, no_proxy: noProxy };
}

async function askTurns(record: RunRecord, options: RunCaseOptions, run: { homeDir: string; projectDir: string; service: string }): Promise<void> {
  const env = runEnv(options.env, run.homeDir);
  const loaded = await readSettingsWithServices(run.homeDir);
  const project = await checkProjectDir(run.projectDir, run.homeDir);
  if (!project.ok) throw new Error(project.reason);
  record.projectDir = project.projectDir;
  const choice = { service: run.service };
  const session: HostedSession = await openSession(
    { homeDir: run.homeDir, env, owner: EVAL_OWNER, settings: async () => loaded.settings, services: async () => loaded.services, choice: () => choice },
    { start: project.projectDir },
  );
  record.sessionId = session.conversation.id;
  const approver = caseApprover(options.evalCase.approve);
  try {
    for (const text of caseTurns(options.evalCase)) {
      const outcome = await session.conversation.ask(text, { mode: options.evalCase.mode, approver, ...(options.onEvent ? { onEvent: options.onEvent } : {}) });
      const end: TurnEnd = { status: outcome.status, ...(outcome.message ? { message: outcome.message } : {}) };
      record.turns.push(end);
    }
  } finally {
    await session.close();
  }
}
