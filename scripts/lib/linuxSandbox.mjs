// @ts-check
// Whether Chromium's sandbox can start on this Linux machine, decided before
// Electron is launched, so a person gets instructions instead of Electron's
// `FATAL:setuid_sandbox_host` crash.
//
// Chromium sandboxes its page processes with unprivileged user namespaces.
// Where it cannot create them, it falls back to its setuid helper
// (chrome-sandbox next to the binary), which only works when root owns it with
// mode 4755; inside node_modules it never does. User namespaces are blocked by
// AppArmor on Ubuntu 24.04 and later (kernel.apparmor_restrict_unprivileged_userns
// = 1) unless a profile grants `userns` to the binary, and on some kernels by
// sysctls. Chromium also refuses to start as root with its sandbox at all.
//
// `readSandboxFacts` reads the machine; `diagnoseChromiumSandbox` is pure.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const APPARMOR_DIR = '/etc/apparmor.d';
export const ELECTRON_PROFILE_NAME = 'mino-electron';
export const BWRAP_PROFILE_NAME = 'mino-bwrap';
/** Where Mino looks for bubblewrap, in order (BWRAP_CANDIDATES in src/main/core/sandbox/availability.ts; a test keeps them equal). */
export const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap', '/run/current-system/sw/bin/bwrap'];

/**
 * @typedef {object} SandboxFacts
 * @property {number | null} uid                  the launching user (null where unknown)
 * @property {string | null} apparmorRestrictUserns contents of /proc/sys/kernel/apparmor_restrict_unprivileged_userns
 * @property {string | null} unprivilegedUsernsClone contents of /proc/sys/kernel/unprivileged_userns_clone (Debian's switch)
 * @property {string | null} maxUserNamespaces    contents of /proc/sys/user/max_user_namespaces
 * @property {boolean} profileAllowsUserns        an AppArmor profile names the binary and grants `userns`
 * @property {{ uid: number, mode: number } | null} chromeSandbox the setuid helper's owner and mode, null when missing
 */

/** @param {string} file */
function readTrimmed(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    // ignore: a missing switch means this kernel does not have that restriction
    return null;
  }
}

/** True when some file directly in `dir` names `binary` and grants `userns` (our profile, or one installed by hand). */
/** @param {string} binary @param {string} [dir] */
export function apparmorProfileAllows(binary, dir = APPARMOR_DIR) {
  let names;
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    // ignore: no AppArmor profiles folder, so no profile can name the binary
    return false;
  }
  for (const entry of names) {
    if (!entry.isFile()) continue;
    let text;
    try {
      text = fs.readFileSync(path.join(dir, entry.name), 'utf8');
    } catch {
      // ignore: a profile we may not read cannot be the one that helps (it would be root's own business)
      continue;
    }
    if (text.includes(binary) && /^\s*userns\s*,/m.test(text)) return true;
  }
  return false;
}

/**
 * @param {string} electronBinary
 * @param {{ apparmorDir?: string, proc?: string }} [where]
 * @returns {SandboxFacts}
 */
export function readSandboxFacts(electronBinary, { apparmorDir = APPARMOR_DIR, proc = '/proc' } = {}) {
  let chromeSandbox = null;
  try {
    const stat = fs.statSync(path.join(path.dirname(electronBinary), 'chrome-sandbox'));
    chromeSandbox = { uid: stat.uid, mode: stat.mode };
  } catch {
    // ignore: no helper; the diagnosis treats it as not set up
  }
  return {
    uid: typeof process.getuid === 'function' ? process.getuid() : null,
    apparmorRestrictUserns: readTrimmed(path.join(proc, 'sys/kernel/apparmor_restrict_unprivileged_userns')),
    unprivilegedUsernsClone: readTrimmed(path.join(proc, 'sys/kernel/unprivileged_userns_clone')),
    maxUserNamespaces: readTrimmed(path.join(proc, 'sys/user/max_user_namespaces')),
    profileAllowsUserns: apparmorProfileAllows(electronBinary, apparmorDir),
    chromeSandbox,
  };
}

/** The setuid helper works only when root owns it and its setuid and execute bits are set. */
/** @param {SandboxFacts["chromeSandbox"]} chromeSandbox */
export function setuidHelperReady(chromeSandbox) {
  return chromeSandbox !== null && chromeSandbox.uid === 0 && (chromeSandbox.mode & 0o4000) !== 0 && (chromeSandbox.mode & 0o111) !== 0;
}

/** Why unprivileged user namespaces are unavailable to this binary, or null when nothing blocks them. */
/** @param {SandboxFacts} facts @returns {{ kind: 'apparmor' | 'sysctl', setting: string } | null} */
export function usernsBlocker(facts) {
  if (facts.unprivilegedUsernsClone === '0') return { kind: 'sysctl', setting: 'kernel.unprivileged_userns_clone = 0' };
  if (facts.maxUserNamespaces === '0') return { kind: 'sysctl', setting: 'user.max_user_namespaces = 0' };
  if (facts.apparmorRestrictUserns === '1' && !facts.profileAllowsUserns) return { kind: 'apparmor', setting: 'kernel.apparmor_restrict_unprivileged_userns = 1' };
  return null;
}

/** What running without Chromium's sandbox costs, said wherever `--no-sandbox` is named. */
export const NO_SANDBOX_RISK =
  "A window whose page were compromised (say, through a bug in showing a model's answer) would then run with all " +
  "of your user's rights instead of none.";
export const NO_SANDBOX_COST = `Last resort: \`npm start -- --no-sandbox\` starts Mino without Chromium's sandbox. ${NO_SANDBOX_RISK}`;

/**
 * What stops Chromium's sandbox here, as lines for a person, or null when it can start.
 * @param {SandboxFacts} facts
 * @param {{ electronBinary: string }} where
 * @returns {{ problem: 'root' | 'apparmor' | 'sysctl', lines: string[] } | null}
 */
export function diagnoseChromiumSandbox(facts, { electronBinary }) {
  if (facts.uid === 0) {
    return {
      problem: 'root',
      lines: [
        'Mino is being started as root, and Chromium does not start as root with its sandbox.',
        'Start Mino as your own user (not with sudo).',
        `In a container where only root exists, \`npm start -- --no-sandbox\` starts it without Chromium's sandbox. ${NO_SANDBOX_RISK}`,
      ],
    };
  }
  const blocker = usernsBlocker(facts);
  if (blocker === null || setuidHelperReady(facts.chromeSandbox)) return null;
  const helper = path.join(path.dirname(electronBinary), 'chrome-sandbox');
  const setuidSteps = ['   sudo chown root:root ' + shellQuote(helper), '   sudo chmod 4755 ' + shellQuote(helper)];
  const crash = 'so Electron would stop at once with "FATAL:setuid_sandbox_host".';
  if (blocker.kind === 'apparmor') {
    return {
      problem: 'apparmor',
      lines: [
        'Mino cannot start here yet: AppArmor blocks the user namespaces Chromium\'s sandbox needs',
        `(${blocker.setting}, the default on Ubuntu 24.04 and later), and Electron's setuid helper is not set up,`,
        crash,
        '',
        'Fix it once, with either of these, then run `npm start` again:',
        ' 1. Allow user namespaces for this Electron binary with an AppArmor profile (as VS Code\'s package installs):',
        `   npm run --silent apparmor-profile | sudo tee ${APPARMOR_DIR}/${ELECTRON_PROFILE_NAME} >/dev/null`,
        `   sudo apparmor_parser -r ${APPARMOR_DIR}/${ELECTRON_PROFILE_NAME}`,
        ' 2. Or make Electron\'s sandbox helper root-owned and setuid:',
        ...setuidSteps,
        '',
        'The same restriction stops bubblewrap, the sandbox for the model\'s shell commands; its profile:',
        `   npm run --silent apparmor-profile -- bwrap | sudo tee ${APPARMOR_DIR}/${BWRAP_PROFILE_NAME} >/dev/null`,
        `   sudo apparmor_parser -r ${APPARMOR_DIR}/${BWRAP_PROFILE_NAME}`,
        '',
        NO_SANDBOX_COST,
      ],
    };
  }
  return {
    problem: 'sysctl',
    lines: [
      `Mino cannot start here yet: this kernel does not allow unprivileged user namespaces (${blocker.setting}),`,
      'which Chromium\'s sandbox needs, and Electron\'s setuid helper is not set up,',
      crash,
      '',
      'Fix it once, then run `npm start` again: make Electron\'s sandbox helper root-owned and setuid:',
      ...setuidSteps,
      `(or allow user namespaces: sudo sysctl -w ${blocker.setting.replace(/ = 0$/, '=1')}; that also lets bubblewrap, the sandbox for shell commands, run).`,
      '',
      NO_SANDBOX_COST,
    ],
  };
}

/** Quotes a path for a POSIX shell when it needs it. */
/** @param {string} text */
export function shellQuote(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * An AppArmor profile that lets one binary create user namespaces and confines
 * it no further: what Ubuntu's own profiles for Chromium-based apps do.
 */
/** @param {string} name @param {string} binary */
export function apparmorProfile(name, binary) {
  if (!path.isAbsolute(binary)) throw new Error(`An AppArmor profile needs an absolute path, not ${binary}.`);
  if (/["\n\0]/.test(binary)) throw new Error(`AppArmor cannot name a path with a quote or a line break in it: ${JSON.stringify(binary)}. Move the folder to a plainer path.`);
  return [
    `# ${name}: lets ${binary} create the user namespaces its sandbox needs,`,
    '# where AppArmor restricts them (Ubuntu 24.04 and later). Install it with:',
    `#   sudo tee ${APPARMOR_DIR}/${name} < this-file && sudo apparmor_parser -r ${APPARMOR_DIR}/${name}`,
    'abi <abi/4.0>,',
    'include <tunables/global>',
    '',
    `profile ${name} "${binary}" flags=(unconfined) {`,
    '  userns,',
    '',
    `  include if exists <local/${name}>`,
    '}',
    '',
  ].join('\n');
}
