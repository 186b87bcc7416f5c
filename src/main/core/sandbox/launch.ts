// How to start one command inside the sandbox: the program, its arguments and
// environment, the descriptors it inherits, and what to clean up afterwards.
// This is the only door into core/sandbox for the bash tool; nothing else
// knows a sandbox exists.
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
import { bwrapArguments } from './bwrapArgs';
import { planSandbox } from './plan';
import type { ProjectWalk } from './projectWalk';
import { seatbeltProfile } from './seatbeltProfile';
import { openSeccompFilter } from './seccomp';
import { systemView } from './systemView';

export interface SandboxLaunch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Descriptors the program must inherit as 3, 4, ... in this order (Linux: the seccomp filter bwrap reads). */
  inheritFds?: readonly number[];
  /** Closes those descriptors and removes what the launch made for the command (macOS: its temp directory). */
  cleanup(): Promise<void>;
}

export interface LaunchRequest {
  /** The program and its arguments as they would run without a sandbox, e.g. ['bash', '-c', command]. */
  command: readonly string[];
  /** Absolute, real path of the project. */
  projectDir: string;
  /** Homes the command sees empty: the one Mino uses and the account's own. */
  homeDirs: readonly string[];
  /**
   * Absolute paths the command may read in those homes (the person's
   * `sandboxReadable` setting, resolved against each home); when absent,
   * DEFAULT_SANDBOX_READABLE in each home.
   */
  readableHome?: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The walk of the project (or the walk under way), shared with the git guard so the project is walked once; when absent the plan walks it. */
  walk?: ProjectWalk | Promise<ProjectWalk>;
}

/** bwrap sees the first inherited descriptor as 3 (after stdin, stdout and stderr). */
const FIRST_INHERITED_FD = 3;

export async function sandboxLaunch(sandbox: Extract<SandboxAvailability, { available: true }>, request: LaunchRequest): Promise<SandboxLaunch> {
  const plan = await planSandbox(request.projectDir, request.homeDirs, { readableHome: request.readableHome, walk: request.walk });
  const launchers: Record<SandboxKind, () => Promise<SandboxLaunch>> = {
    bwrap: async () => {
      const args = bwrapArguments(plan, request.command, { system: await systemView(), seccompFd: FIRST_INHERITED_FD });
      // Opened last, so nothing after it can fail and leave it open; the bash tool closes it through cleanup().
      const filter = await openSeccompFilter();
      return {
        file: sandbox.program,
        args,
        env: request.env,
        inheritFds: [filter.fd],
        cleanup: () => filter.close(),
      };
    },
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
