// What `mino exec`, `mino compact`, `mino changes`, `mino undo` and `mino redo`
// do before their own work: find Mino's home, load the settings, assemble the
// session's dependencies, open a saved session, and turn what a person must
// fix (a home Mino cannot use, bad settings, a missing or locked session)
// into a message and exit code 2 rather than a stack trace.
import { Conversation } from '../main/core/agent/conversation';
import { sessionDeps } from '../main/core/agent/defaultDeps';
import { minoHomeProblem } from '../main/core/config/homeErrors';
import { resolveHomeDir } from '../main/core/config/minoHome';
import { configuredSettings, loadSettings } from '../main/core/config/settings';
import { SessionLockedError } from '../main/core/locks/sessionLock';
import { SessionLoadError } from '../main/core/sessions/load';
import type { Output } from './terminalText';
import { terminalOutput } from './terminalText';

export const EXIT = { completed: 0, failed: 1, usage: 2, unknownResults: 3 } as const;

export interface CommandIo {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
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

/** The settings (and which the file sets) and session dependencies of a subcommand; an exit code when the settings cannot be used. */
export async function cliSessionDeps(homeDir: string, io: CommandIo, fail: Fail) {
  const settings = await loadSettings(homeDir);
  if (!settings.ok) return fail(settings.error, EXIT.usage);
  for (const problem of settings.value.problems) io.stderr.write(`mino: warning: ${problem}\n`);
  const loaded = settings.value.settings;
  const configured = await configuredSettings(homeDir);
  return { settings: loaded, configured, ...sessionDeps({ homeDir, env: io.env, owner: 'CLI', settings: async () => loaded }) };
}

/**
 * Opens the saved session `sessionId`. A missing or damaged session file (its path and what is wrong), or one
 * another process is writing, is the person's to resolve: a message and exit 2. Anything else is thrown.
 */
export async function resumeSession(deps: Parameters<typeof Conversation.resume>[0], sessionId: string, fail: Fail): Promise<Conversation | number> {
  try {
    return await Conversation.resume(deps, sessionId);
  } catch (error) {
    if (error instanceof SessionLoadError || error instanceof SessionLockedError) return fail(error.message, EXIT.usage);
    throw error;
  }
}
