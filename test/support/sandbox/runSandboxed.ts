// Runs one shell command in the real sandbox the bash tool uses (sandboxLaunch,
// then runInProcessGroup with the launch's inherited descriptors), without the
// agent loop around it, so a test can choose the homes, the readable folders
// and the environment exactly.
import * as path from 'node:path';
import { sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { sandboxLaunch, type LaunchRequest } from '../../../src/main/core/sandbox/launch';
import { runInProcessGroup } from '../../../src/main/core/tools/processGroup';

/** The folder of the Node running the tests: list it as readable and `node` runs inside the sandbox too. */
export const NODE_DIR = path.dirname(process.execPath);

/** PATH inside the sandbox: this Node first, then the system's programs. */
export const SANDBOX_PATH = `${NODE_DIR}:/usr/local/bin:/usr/bin:/bin`;

export interface SandboxedRun {
  output: string;
  exitCode: number | null;
}

export type SandboxedRequest = Omit<LaunchRequest, 'command' | 'env'> & { env?: NodeJS.ProcessEnv };

/** `bash -c command` in the sandbox; the environment defaults to PATH (SANDBOX_PATH) and HOME (the first home). */
export async function runSandboxed(command: string, request: SandboxedRequest): Promise<SandboxedRun> {
  const availability = await sandboxAvailability();
  if (!availability.available) throw new Error(`no sandbox on this machine: ${availability.reason}`);
  const env = request.env ?? { PATH: SANDBOX_PATH, HOME: request.homeDirs[0] ?? '/' };
  const launch = await sandboxLaunch(availability, { ...request, command: ['bash', '-c', command], env });
  try {
    const outcome = await runInProcessGroup(launch.file, launch.args, {
      cwd: request.projectDir,
      env: launch.env,
      timeoutMs: 30_000,
      killGraceMs: 1_000,
      maxOutputBytes: 1024 * 1024,
      inheritFds: launch.inheritFds,
    });
    if (outcome.startError) throw outcome.startError;
    return { output: outcome.output, exitCode: outcome.exitCode };
  } finally {
    await launch.cleanup();
  }
}
