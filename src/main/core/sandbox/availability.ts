// Whether this machine can sandbox a command, and if not, why: asked once per
// process (the answer does not change while Mino runs), so every command
// after the first starts without a probe.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { trustedProgram } from './trustedProgram';

export type SandboxKind = 'bwrap' | 'seatbelt';

export type SandboxAvailability =
  /** `version` names the program that builds the sandbox: `bwrap --version`'s answer ("bubblewrap 0.8.0"), or "macOS sandbox-exec". */
  | { available: true; kind: SandboxKind; program: string; version: string }
  | { available: false; reason: string };

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
/**
 * Where bubblewrap is looked for, in order: system folders only root can
 * change, never PATH. `npm run`, `npx` and direnv put project folders
 * (node_modules/.bin) first on PATH, so a project could otherwise bring its own
 * "bwrap" that runs every command unconfined while Mino reports a sandbox.
 * The last is NixOS's, a link into /nix/store.
 */
export const BWRAP_CANDIDATES: readonly string[] = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap', '/run/current-system/sw/bin/bwrap'];
/** Ubuntu 24.04 and later set it to 1: only programs an AppArmor profile allows may create user namespaces. */
export const APPARMOR_USERNS_SWITCH = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const PROBE_TIMEOUT_MS = 10_000;

const cache = new Map<string, Promise<SandboxAvailability>>();

/** `bwrapCandidates` are the files bubblewrap is looked for in (tests give others). */
export function sandboxAvailability(
  platform: NodeJS.Platform = process.platform,
  bwrapCandidates: readonly string[] = BWRAP_CANDIDATES,
  apparmorSwitch = APPARMOR_USERNS_SWITCH,
): Promise<SandboxAvailability> {
  const key = `${platform}\0${bwrapCandidates.join('\0')}\0${apparmorSwitch}`;
  let known = cache.get(key);
  if (!known) {
    known = detect(platform, bwrapCandidates, apparmorSwitch);
    cache.set(key, known);
  }
  return known;
}

async function detect(platform: NodeJS.Platform, candidates: readonly string[], apparmorSwitch: string): Promise<SandboxAvailability> {
  if (platform === 'darwin') {
    return (await isExecutable(SANDBOX_EXEC))
      ? { available: true, kind: 'seatbelt', program: SANDBOX_EXEC, version: 'macOS sandbox-exec' }
      : { available: false, reason: `${SANDBOX_EXEC} is missing on this Mac` };
  }
  if (platform !== 'linux') {
    return { available: false, reason: `there is no command sandbox Mino can use on ${platform === 'win32' ? 'Windows' : platform}` };
  }
  const found = await trustedBwrap(candidates);
  if ('reason' in found) return { available: false, reason: found.reason };
  const bwrap = found.program;
  // The same namespaces every command gets: a kernel without unprivileged user namespaces fails here. The command
  // run inside asks bwrap its version (the same file, the root being bound read-only), so one child answers both.
  const probe = await run(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', bwrap, '--version']);
  if (!probe.ok) {
    if (await apparmorRestrictsUserNamespaces(apparmorSwitch)) {
      return {
        available: false,
        reason:
          `bubblewrap cannot create a sandbox here (${probe.detail}): AppArmor lets only the programs it names create user namespaces ` +
          '(kernel.apparmor_restrict_unprivileged_userns = 1, the default on Ubuntu 24.04 and later), and no profile names bwrap. ' +
          'Install the bwrap profile once (npm run --silent apparmor-profile -- bwrap | sudo tee /etc/apparmor.d/mino-bwrap, then ' +
          'sudo apparmor_parser -r /etc/apparmor.d/mino-bwrap; see Start in the README) and restart Mino',
      };
    }
    return {
      available: false,
      reason: `bubblewrap cannot create a sandbox here (${probe.detail}); this kernel may not allow unprivileged user namespaces`,
    };
  }
  return { available: true, kind: 'bwrap', program: bwrap, version: probe.stdout.trim().split('\n')[0] || 'bubblewrap (version unknown)' };
}

/**
 * The first candidate that exists and that only root can change (see
 * trustedProgram.ts). One that exists but fails the check is passed over; if
 * none passes, the reason names what was wrong with each.
 */
async function trustedBwrap(candidates: readonly string[]): Promise<{ program: string } | { reason: string }> {
  const problems: string[] = [];
  for (const candidate of candidates) {
    if (!(await exists(candidate))) continue;
    const trusted = await trustedProgram(candidate);
    if ('real' in trusted) return { program: trusted.real };
    problems.push(trusted.problem);
  }
  if (problems.length === 0) {
    return { reason: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt install bubblewrap) and restart Mino' };
  }
  return {
    reason:
      `bubblewrap (bwrap) was found, but another account could replace it and so run commands outside any sandbox: ${problems.join('; ')}. ` +
      'Reinstall it so that root owns it and the folders that hold it and only root can change them (Debian and Ubuntu: apt install --reinstall bubblewrap), then restart Mino',
  };
}

async function apparmorRestrictsUserNamespaces(file: string): Promise<boolean> {
  try {
    return (await fs.readFile(file, 'utf8')).trim() === '1';
  } catch {
    // ignore: no such switch, so AppArmor does not restrict user namespaces on this kernel
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    // ignore: not there (or not reachable by this user): the next candidate is tried
    return false;
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

function run(file: string, args: string[]): Promise<{ ok: true; stdout: string } | { ok: false; detail: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: { PATH: process.env.PATH ?? '' } }, (error, stdout, stderr) => {
      if (!error) resolve({ ok: true, stdout });
      else resolve({ ok: false, detail: (stderr.trim().split('\n').pop() ?? '') || error.message });
    });
  });
}
