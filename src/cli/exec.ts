// `mino exec`: one turn, headless, through the same core as the desktop app.
import * as path from 'node:path';
import { UnacknowledgedResultsError, type Conversation } from '../main/core/agent/conversation';
import { commandSandbox } from '../main/core/agent/defaultDeps';
import type { Approver } from '../main/core/agent/approver';
import type { HostedSession } from '../main/core/agent/sessionHost';
import { addLogSink } from '../main/core/log/log';
import { streamSink } from '../main/core/log/sinks';
import { isLoosening, MODE_WARNINGS, modeNeedsSandbox, noSandboxForModeMessage } from '../main/core/policy/modes';
import { checkProjectDir } from '../main/core/projects/checkProject';
import { SessionSaveError } from '../main/core/sessions/sessionErrors';
import { sandboxStatusOf, type SandboxStatus } from '../shared/sandboxStatus';
import { removedTempFilesText, survivorsText } from '../shared/resumeNotices';
import type { ExecArgs } from './args';
import { notOfferedLine } from '../main/core/skills/discoverSkills';
import { serviceNamed, type ServiceChoice } from '../main/core/config/modelConfig';
import { serviceNames } from '../main/core/config/services';
import { ModelError } from '../main/core/model/types';
import type { ServiceConfig } from '../shared/modelServices';
import { cliSettings, escapedIo, EXIT, failWith, inMinoHome, openCliSession, recordedChoice, type CliSettings, type CommandIo, type Fail } from './commandSetup';
import { jsonPrinter, textPrinter, type SessionBanner, type TurnPrinter } from './printers';
import { terminalOutput } from './terminalText';
import { ImageRefusedError, keepImage } from '../main/core/images/imageStore';
import { imagesRefusal } from '../main/core/images/imageSupport';
import { readImageFile } from '../main/core/images/readImageFile';
import type { ImageRef } from '../shared/images';

export async function runExec(args: ExecArgs, rawIo: CommandIo): Promise<number> {
  // The trail quotes files and servers too, so it reaches the terminal escaped like everything else.
  const stopLog = args.verbose ? addLogSink(streamSink(terminalOutput(rawIo.stderr))) : () => undefined;
  try {
    return await execute(args, rawIo);
  } finally {
    stopLog();
  }
}

async function execute(args: ExecArgs, rawIo: CommandIo): Promise<number> {
  const io = escapedIo(rawIo);
  const fail = failWith(io);
  // A working directory that is gone, or a record that cannot be saved outside a turn (the session's header, an
  // acknowledgment), is the person's to fix too; inside a turn, a save that fails ends the turn instead (exit 1).
  return inMinoHome(io, fail, (homeDir) => execInHome(args, io, rawIo, homeDir, fail), (error) => error instanceof WorkingDirectoryGoneError || error instanceof SessionSaveError);
}

/** The folder `dir` names (default: the current directory), as an absolute path. */
function resolveDir(dir: string | undefined): string {
  if (dir !== undefined && path.isAbsolute(dir)) return path.resolve(dir);
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch (error) {
    throw new WorkingDirectoryGoneError({ cause: error });
  }
  return path.resolve(cwd, dir ?? '.');
}

class WorkingDirectoryGoneError extends Error {
  constructor(options: { cause: unknown }) {
    super(
      'The current directory no longer exists (it was deleted or moved). Change to your project folder, or give --project with a full path, then run mino again.',
      options,
    );
    this.name = 'WorkingDirectoryGoneError';
  }
}

async function execInHome(args: ExecArgs, io: CommandIo, rawIo: CommandIo, homeDir: string, fail: Fail): Promise<number> {
  const setup = await cliSettings(homeDir, io, fail);
  if (typeof setup === 'number') return setup;
  const choice = await execChoice(args, homeDir);
  const service = chosenService(args, choice, setup, io.env);
  if (typeof service === 'string') return fail(service, EXIT.usage);
  // Images are checked and kept before a session opens: a file that is not one, or a service that takes none, opens nothing.
  const images = await keptExecImages(args.images, homeDir);
  if (typeof images === 'string') return fail(images, EXIT.usage);
  const refused = imagesRefusal(images, { model: choice.model ?? service.model, service: service.name, images: service.images });
  if (refused !== null) return fail(refused, EXIT.usage);
  // The banner names the sandbox, found by the check every command goes through (on Linux a run of bwrap):
  // started now, it runs while the session opens (and is caught at once, in case the session never does).
  const sandbox = commandSandbox(async () => setup.settings).then(sandboxStatusOf, (error: unknown): SandboxStatus => ({
    available: false,
    reason: `Mino could not check for a sandbox (${error instanceof Error ? error.message : String(error)})`,
  }));
  // A mode the sandbox carries (auto) is refused before anything opens when no sandbox is available.
  if (modeNeedsSandbox(args.mode)) {
    const status = await sandbox;
    if (!status.available) return fail(`${noSandboxForModeMessage(args.mode, status.reason)} Use --mode accept-edits or manual instead.`, EXIT.usage);
  }
  const session = await openExecSession(args, homeDir, io, setup, choice, fail);
  if (typeof session === 'number') return session;
  try {
    const banner = {
      contextWindow: service.contextWindow ?? setup.settings.contextWindow,
      contextWindowIsDefault: service.contextWindow === undefined && !setup.configured.has('contextWindow'),
      sandbox: await sandbox,
    };
    return await runExecTurn({ ...args, kept: images }, session.conversation, banner, io, rawIo, fail);
  } finally {
    await session.close();
  }
}

/**
 * The service and model this run asks: --service and --model over the session's own (with --session, as its log
 * recorded them), over the configured default service and its model.
 */
async function execChoice(args: ExecArgs, homeDir: string): Promise<ServiceChoice> {
  const own = args.sessionId ? await recordedChoice(homeDir, args.sessionId) : null;
  if (args.service !== undefined) {
    // Naming the session's own service keeps its model; another service starts with that service's model.
    const model = args.model ?? (own?.service === args.service ? own.model : undefined);
    return { service: args.service, ...(model === undefined ? {} : { model }) };
  }
  return { ...(own ?? {}), ...(args.model === undefined ? {} : { model: args.model }) };
}

/** The configured service `choice` names, or why there is none (a name not configured, or no longer). */
function chosenService(args: ExecArgs, choice: ServiceChoice, setup: CliSettings, env: NodeJS.ProcessEnv): ServiceConfig | string {
  try {
    return serviceNamed(choice.service, { settings: setup.settings, services: setup.services, env });
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    if (args.service !== undefined || choice.service === undefined) return error.message;
    return `Session ${args.sessionId} uses the model service "${choice.service}", which is no longer in ~/.mino/config.json. Continue it with --service NAME, one of: ${serviceNames(setup.services.listed).join(', ')}.`;
  }
}

/**
 * A new session in the project asked for (default: the current directory), or the saved one named, whose
 * project is checked again (it may have changed since) and must be the one asked for, if any.
 */
async function openExecSession(args: ExecArgs, homeDir: string, io: CommandIo, setup: CliSettings, choice: ServiceChoice, fail: Fail): Promise<HostedSession | number> {
  if (!args.sessionId) {
    const project = await checkProjectDir(resolveDir(args.projectDir), homeDir);
    if (!project.ok) return fail(project.reason, EXIT.usage);
    return openCliSession(homeDir, io, setup, { start: project.projectDir }, fail, choice);
  }
  const session = await openCliSession(homeDir, io, setup, { resume: args.sessionId }, fail, choice);
  if (typeof session === 'number') return session;
  const projectDir = session.conversation.projectDir;
  const project = await checkProjectDir(projectDir, homeDir);
  const asked = args.projectDir === undefined ? null : await checkProjectDir(resolveDir(args.projectDir), homeDir);
  const problem = !project.ok
    ? project.reason
    : asked && (!asked.ok || asked.projectDir !== project.projectDir)
      ? `Session ${args.sessionId} belongs to ${projectDir}. Leave out --project, or name that folder.`
      : null;
  if (!problem) return session;
  await session.close();
  return fail(problem, EXIT.usage);
}

/** The images of --image, each read (a regular file of at most 5 MB) and kept; a refusal's message when one cannot be. */
async function keptExecImages(files: readonly string[], homeDir: string): Promise<ImageRef[] | string> {
  const kept: ImageRef[] = [];
  for (const file of files) {
    try {
      const added = await keepImage(homeDir, await readImageFile(resolveDir(file)), file);
      kept.push({ sha256: added.sha256, mediaType: added.mediaType });
    } catch (error) {
      if (error instanceof ImageRefusedError) return error.message;
      throw error;
    }
  }
  return kept;
}

/** The arguments, with the images of --image as kept. */
type TurnArgs = ExecArgs & { kept: ImageRef[] };

async function runExecTurn(
  args: TurnArgs,
  conversation: Conversation,
  banner: Omit<SessionBanner, 'id' | 'mode'>,
  io: CommandIo,
  rawIo: CommandIo,
  fail: Fail,
): Promise<number> {
  const printer: TurnPrinter = args.json ? jsonPrinter(io.stdout) : textPrinter(io.stdout, rawIo.stderr);
  printer.session({ id: conversation.id, ...banner, mode: args.mode, projectInstructions: conversation.projectInstructions });
  // The person typed --mode, so no question is asked; the warning is still said, where it does not mix with the transcript.
  if (args.mode !== 'manual' && isLoosening('manual', args.mode)) io.stderr.write(`${MODE_WARNINGS[args.mode]}\n`);
  // Invalid skills are not offered; the person learns which and why, one line each, outside the transcript.
  for (const entry of conversation.skills.notOffered) io.stderr.write(`mino: ${notOfferedLine(entry).replaceAll('\n', '\\n')}\n`);
  for (const problem of conversation.loadProblems) printer.event({ type: 'notice', message: `line ${problem.line}: ${problem.message}` });

  if (conversation.unknownCalls.length > 0) {
    for (const call of conversation.unknownCalls) {
      if (call.removed_temp_files) io.stderr.write(`mino: ${call.name} ${call.call_id}: ${removedTempFilesText(call.removed_temp_files)}\n`);
      if (call.survivors) io.stderr.write(`mino: ${call.name} ${call.call_id}: ${survivorsText(call.survivors)}\n`);
    }
    if (!args.acknowledge) {
      return fail(new UnacknowledgedResultsError([...conversation.unknownCalls]).message + ' Run again with --acknowledge to continue.', EXIT.unknownResults);
    }
    const acknowledged = await conversation.acknowledge();
    printer.event({ type: 'notice', message: `Acknowledged unknown results: ${acknowledged.map((c) => `${c.name} ${c.call_id}`).join(', ')}` });
  }
  return askOnce(args, conversation, printer);
}

/** The one turn, answered as --approve says, stopped by Ctrl-C or SIGTERM; exit 0 when it completed. */
async function askOnce(args: TurnArgs, conversation: Conversation, printer: TurnPrinter): Promise<number> {
  const how = `--approve ${args.approve}`;
  const approver: Approver = {
    approve: async () => {
      const approved = args.approve === 'always';
      printer.approvalAnswer(approved, how);
      return approved;
    },
  };
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const images = args.kept.length > 0 ? { images: args.kept } : {};
    const outcome = await conversation.ask(args.prompt, { mode: args.mode, approver, signal: stop.signal, onEvent: (event) => printer.event(event), ...images });
    return outcome.status === 'completed' ? EXIT.completed : EXIT.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
