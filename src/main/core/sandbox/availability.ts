// Whether this machine can sandbox a command, and if not, why: asked once per
// process (the answer does not change while Mino runs), so every command
// after the first starts without a probe.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export type SandboxKind = 'bwrap' | 'seatbelt';

export type SandboxAvailability =
  | { available: true; kind: SandboxKind; program: string }
  | { available: false; reason: string };

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
/** Ubuntu 24.04 and later set it to 1: only programs an AppArmor profile allows may create user namespaces. */
export const APPARMOR_USERNS_SWITCH = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const PROBE_TIMEOUT_MS = 10_000;

const cache = new Map<string, Promise<SandboxAvailability>>();

/** `searchPath` is the PATH to look for bwrap in (tests point it elsewhere). */
export function sandboxAvailability(
  platform: NodeJS.Platform = process.platform,
  searchPath = process.env.PATH ?? '',
  apparmorSwitch = APPARMOR_USERNS_SWITCH,
): Promise<SandboxAvailability> {
  const key = `${platform}\0${searchPath}\0${apparmorSwitch}`;
  let known = cache.get(key);
  if (!known) {
    known = detect(platform, searchPath, apparmorSwitch);
    cache.set(key, known);
  }
  return known;
}

async function detect(platform: NodeJS.Platform, searchPath: string, apparmorSwitch: string): Promise<SandboxAvailability> {
  if (platform === 'darwin') {
    return (await isExecutable(SANDBOX_EXEC))
      ? { available: true, kind: 'seatbelt', program: SANDBOX_EXEC }
      : { available: false, reason: `${SANDBOX_EXEC} is missing on this Mac` };
  }
  if (platform !== 'linux') {
    return { available: false, reason: `there is no command sandbox Mino can use on ${platform === 'win32' ? 'Windows' : platform}` };
  }
  const bwrap = await findOnPath('bwrap', searchPath);
  if (bwrap === null) {
    return { available: false, reason: 'bubblewrap (bwrap) is not installed; install it (Debian and Ubuntu: apt install bubblewrap) and restart Mino' };
  }
  // The same namespaces every command gets: a kernel without unprivileged user namespaces fails here.
  const probe = await run(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true']);
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
  return { available: true, kind: 'bwrap', program: bwrap };
}

async function apparmorRestrictsUserNamespaces(file: string): Promise<boolean> {
  try {
    return (await fs.readFile(file, 'utf8')).trim() === '1';
  } catch {
    // ignore: no such switch, so AppArmor does not restrict user namespaces on this kernel
    return false;
  }
}

async function findOnPath(name: string, searchPath: string): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // A relative PATH entry would depend on the working directory.
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

function run(file: string, args: string[]): Promise<{ ok: true } | { ok: false; detail: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: { PATH: process.env.PATH ?? '' } }, (error, _stdout, stderr) => {
      if (!error) resolve({ ok: true });
      else resolve({ ok: false, detail: (stderr.trim().split('\n').pop() ?? '') || error.message });
    });
  });
}
