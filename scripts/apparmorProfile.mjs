// @ts-check
// `npm run --silent apparmor-profile [-- bwrap]`: prints an AppArmor profile that lets this
// checkout's Electron binary (or bubblewrap) create user namespaces, for
// Ubuntu 24.04 and later. Pipe it to `sudo tee /etc/apparmor.d/NAME` and load it
// with `sudo apparmor_parser -r /etc/apparmor.d/NAME` (the README's Start section).
import { accessSync, constants, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { electronBinaryPath } from './lib/electron.cjs';
import { BWRAP_PROFILE_NAME, ELECTRON_PROFILE_NAME, apparmorProfile } from './lib/linuxSandbox.mjs';

/** @param {string} name */
function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // ignore: not in this folder; try the next
    }
  }
  return null;
}

const which = process.argv[2] ?? 'electron';
try {
  if (which === 'electron') {
    process.stdout.write(apparmorProfile(ELECTRON_PROFILE_NAME, electronBinaryPath()));
  } else if (which === 'bwrap') {
    const bwrap = findOnPath('bwrap');
    if (bwrap === null) throw new Error('bubblewrap (bwrap) is not installed: install it first (Debian and Ubuntu: sudo apt install bubblewrap).');
    process.stdout.write(apparmorProfile(BWRAP_PROFILE_NAME, bwrap));
  } else {
    throw new Error(`usage: npm run --silent apparmor-profile [-- electron|bwrap] (not ${which})`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
