// @ts-check
// `npm run --silent apparmor-profile [-- bwrap]`: prints an AppArmor profile that lets this
// checkout's Electron binary (or bubblewrap) create user namespaces, for
// Ubuntu 24.04 and later. Pipe it to `sudo tee /etc/apparmor.d/NAME` and load it
// with `sudo apparmor_parser -r /etc/apparmor.d/NAME` (the README's Start section).
import { realpathSync } from 'node:fs';
import { electronBinaryPath } from './lib/electron.cjs';
import { findOnPath } from './lib/findOnPath.mjs';
import { BWRAP_PROFILE_NAME, ELECTRON_PROFILE_NAME, apparmorProfile } from './lib/linuxSandbox.mjs';

const which = process.argv[2] ?? 'electron';
try {
  if (which === 'electron') {
    process.stdout.write(apparmorProfile(ELECTRON_PROFILE_NAME, electronBinaryPath()));
  } else if (which === 'bwrap') {
    const found = findOnPath('bwrap');
    // The profile must name the real file, not a link to it.
    const bwrap = found === null ? null : realpathSync(found);
    if (bwrap === null) throw new Error('bubblewrap (bwrap) is not installed: install it first (Debian and Ubuntu: sudo apt install bubblewrap).');
    process.stdout.write(apparmorProfile(BWRAP_PROFILE_NAME, bwrap));
  } else {
    throw new Error(`usage: npm run --silent apparmor-profile [-- electron|bwrap] (not ${which})`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
