// What `mino exec`, `mino compact`, `mino changes`, `mino undo` and `mino redo`
// do before their own work: find Mino's home, load the settings, open the
// session as the CLI, and turn what a person must fix (a home Mino cannot
// use, bad settings, a missing or locked session) into a message and exit
// code 2 rather than a stack trace. Every command opens and closes its
// session here, so each holds it under the same name.
import type { Conversation } from '../main/core/agent/conversation';
import { openSession, type HostedSession, type SessionToOpen } from '../main/core/agent/sessionHost';
import { minoHomeProblem } from '../main/core/config/homeErrors';
import { resolveHomeDir } from '../main/core/config/minoHome';
import type { ServiceChoice } from '../main/core/config/modelConfig';
import { serviceKeyVariables, type ServiceSettings } from '../main/core/config/services';
import { configuredSettings, loadSettingsWithServices } from '../main/core/config/settings';
import { withholdSecretsFromProcess } from '../main/core/config/environmentSecret';
import { SessionLockedError } from '../main/core/locks/sessionLock';
import { log } from '../main/core/log/log';
import { SessionLoadError, sessionModelChoice } from '../main/core/sessions/load';
import type { SessionId } from '../shared/domain';
import type { SettingName, Settings } from '../shared/settings';
import type { Output } from './terminalText';
import { terminalOutput } from './terminalText';

export const EXIT = { completed: 0, failed: 1, usage: 2, unknownResults: 3 } as const;

export interface CommandIo {
  stdout: Output;
  stderr: Output;
  /**
   * The environment the command started with. OPENAI_API_KEY, when set, is here only: it was taken out of the
   * process's own environment (mino.ts), so no child inherits it; so are the variables holding the configured
   * services' keys (their apiKeyEnv), once the settings are read (cliSettings).
   */
  env: NodeJS.ProcessEnv;
  /** Why the key could not be erased from the process's start-up environment block, for the trail (--verbose). */
  secretsLeftBehind?: readonly string[];
}

/** Says `mino: <message>` on stderr and gives back the exit code. */
export type Fail = (message: string, code: number) => number;

/** Errors quote files, settings and session logs: they reach the terminal escaped like the transcript. */
export function escapedIo(rawIo: CommandIo): CommandIo {
  return { ...rawIo, stderr: terminalOutput(rawIo.stderr) };
}

export function failWith(io: CommandIo): Fail {
  return (message, code) => {
    io.stderr.write(`mino: ${message}\n`);
    return code;
  };
}

/**
 * Runs a subcommand in Mino's home. A home that cannot be found or used (read-only, full, a file in it Mino
 * cannot use) is the person's to fix, like a bad argument: a message and exit 2. `personsProblem` names more
 * errors of that kind (their message is said as it is).
 */
export async function inMinoHome(
  io: CommandIo,
  fail: Fail,
  body: (homeDir: string) => Promise<number>,
  personsProblem: (error: unknown) => boolean = () => false,
): Promise<number> {
  // Said here, where the command's trail (if any) is already listening.
  for (const detail of io.secretsLeftBehind ?? []) log.warn('cli.secret_left_in_environment', { detail });
  let homeDir: string;
  try {
    homeDir = resolveHomeDir(io.env);
  } catch (error) {
    return fail((error as Error).message, EXIT.usage);
  }
  try {
    return await body(homeDir);
  } catch (error) {
    const problem = personsProblem(error) ? (error as Error).message : minoHomeProblem(error, homeDir);
    if (problem !== undefined) return fail(problem, EXIT.usage);
    throw error;
  }
}

/** Who a CLI command holds a session as, as a second opener is told. */
export const CLI_OWNER = 'CLI';

/** What a subcommand runs with from the settings file. */
export interface CliSettings {
  settings: Settings;
  /** Which settings the file sets. */
  configured: ReadonlySet<SettingName>;
  services: ServiceSettings;
}

/**
 * The settings a subcommand runs with, and which of them the file sets; an exit code when they cannot be used.
 * The variables holding the services' keys leave the process's environment here, as OPENAI_API_KEY did at start-up:
 * before any child starts (the sandbox check is the first), since only now are their names known.
 */
export async function cliSettings(homeDir: string, io: CommandIo, fail: Fail): Promise<CliSettings | number> {
  const loaded = await loadSettingsWithServices(homeDir);
  if (!loaded.ok) return fail(loaded.error, EXIT.usage);
  for (const problem of loaded.value.problems) io.stderr.write(`mino: warning: ${problem}\n`);
  const names = serviceKeyVariables(loaded.value.services);
  if (names.length > 0) {
    for (const detail of withholdSecretsFromProcess({ names }).leftBehind) log.warn('cli.secret_left_in_environment', { detail });
  }
  return { settings: loaded.value.settings, configured: await configuredSettings(homeDir), services: loaded.value.services };
}

/**
 * Opens a session as the CLI, through the same host as the desktop (core/agent/sessionHost). A missing or
 * damaged session file (its path and what is wrong), or one another process is writing, is the person's to
 * resolve: a message and exit 2. Anything else is thrown.
 */
export async function openCliSession(
  homeDir: string,
  io: CommandIo,
  setup: CliSettings,
  what: SessionToOpen,
  fail: Fail,
  choice: ServiceChoice = {},
): Promise<HostedSession | number> {
  const { settings, services } = setup;
  try {
    return await openSession({ homeDir, env: io.env, owner: CLI_OWNER, settings: async () => settings, services: async () => services, choice: () => choice }, what);
  } catch (error) {
    if (error instanceof SessionLoadError || error instanceof SessionLockedError) return fail(error.message, EXIT.usage);
    throw error;
  }
}

/** Loads the settings, resumes saved session `sessionId` as the CLI, runs `body` on it, and closes it whatever happens. */
export async function inSavedSession(
  homeDir: string,
  io: CommandIo,
  fail: Fail,
  sessionId: SessionId,
  body: (conversation: Conversation) => Promise<number>,
): Promise<number> {
  const setup = await cliSettings(homeDir, io, fail);
  if (typeof setup === 'number') return setup;
  // Compacting asks the model too: the session's own service and model, as it recorded them.
  const session = await openCliSession(homeDir, io, setup, { resume: sessionId }, fail, (await recordedChoice(homeDir, sessionId)) ?? {});
  if (typeof session === 'number') return session;
  try {
    return await body(session.conversation);
  } finally {
    await session.close();
  }
}

/** The service and model saved session `id` last recorded; null when it records none, or cannot be read (opening it says why). */
export async function recordedChoice(homeDir: string, id: SessionId): Promise<ServiceChoice | null> {
  try {
    return await sessionModelChoice(homeDir, id);
  } catch (error) {
    if (error instanceof SessionLoadError) return null;
    throw error;
  }
}
