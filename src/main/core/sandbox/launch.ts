// How to start one command inside the sandbox: the program, its arguments and
// environment, and what to clean up afterwards. This is the only door into
// core/sandbox for the bash tool; nothing else knows a sandbox exists.
//
// Why not @anthropic-ai/sandbox-runtime: it requires Node >= 22.12 while the
// CLI supports Node 20.19, and it does not serve these rules as they stand
// (masking the project's protected files found by our own rules, a read-only
// `.git`, a PID namespace with the parent's death ending every process). So
// the bwrap arguments and the Seatbelt profile are built here, from one plan.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxAvailability, SandboxKind } from './availability';
import { bwrapArguments, type HostSockets } from './bwrapArgs';
import { planSandbox } from './plan';
import { seatbeltProfile } from './seatbeltProfile';

export interface SandboxLaunch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Removes what the launch made for the command (macOS: its temp directory). */
  cleanup(): Promise<void>;
}

export interface LaunchRequest {
  /** The program and its arguments as they would run without a sandbox, e.g. ['bash', '-c', command]. */
  command: readonly string[];
  /** Absolute, real path of the project. */
  projectDir: string;
  /** Homes whose secrets are masked: the one Mino uses and the account's own. */
  homeDirs: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Sockets that lead out of a bwrap sandbox without the network: Docker's (root on the host in one connect). */
const HOST_SOCKETS = ['/run/docker.sock', '/var/run/docker.sock'];

export async function sandboxLaunch(sandbox: Extract<SandboxAvailability, { available: true }>, request: LaunchRequest): Promise<SandboxLaunch> {
  const plan = await planSandbox(request.projectDir, request.homeDirs);
  const launchers: Record<SandboxKind, () => Promise<SandboxLaunch>> = {
    bwrap: async () => ({
      file: sandbox.program,
      args: bwrapArguments(plan, request.command, await hostSockets(request.env)),
      env: request.env,
      cleanup: async () => undefined,
    }),
    seatbelt: async () => {
      const tempDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-command-')));
      return {
        file: sandbox.program,
        args: ['-p', seatbeltProfile(plan, tempDir), ...request.command],
        env: { ...request.env, TMPDIR: tempDir },
        cleanup: () => fs.rm(tempDir, { recursive: true, force: true }),
      };
    },
  };
  return launchers[sandbox.kind]();
}

async function hostSockets(env: NodeJS.ProcessEnv): Promise<HostSockets> {
  const sockets: string[] = [];
  for (const socket of HOST_SOCKETS) {
    const real = await fs.realpath(socket).catch(() => null);
    if (real !== null && !sockets.includes(real)) sockets.push(real);
  }
  const runtime = env.XDG_RUNTIME_DIR;
  const runtimeDir = runtime && path.isAbsolute(runtime) ? await fs.realpath(runtime).catch(() => null) : null;
  return runtimeDir !== null && runtimeDir !== '/' ? { runtimeDir, sockets } : { sockets };
}
