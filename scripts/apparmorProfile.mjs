// @ts-check
// `npm run --silent apparmor-profile [-- bwrap]`: prints an AppArmor profile that lets this
// checkout's Electron binary (or bubblewrap) create user namespaces, for
// Ubuntu 24.04 and later. Pipe it to `sudo tee /etc/apparmor.d/NAME` and load it
// with `sudo apparmor_parser -r /etc/apparmor.d/NAME` (the README's Start section).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { electronBinaryPath } from './lib/electron.cjs';
import { BWRAP_CANDIDATES, BWRAP_PROFILE_NAME, ELECTRON_PROFILE_NAME, apparmorProfile } from './lib/linuxSandbox.mjs';

const which = process.argv[2] ?? 'electron';
try {
  if (which === 'electron') {
    process.stdout.write(apparmorProfile(ELECTRON_PROFILE_NAME, electronBinaryPath()));
  } else if (which === 'bwrap') {
    process.stdout.write(apparmorProfile(BWRAP_PROFILE_NAME, trustedBwrap()));
  } else {
    throw new Error(`usage: npm run --silent apparmor-profile [-- electron|bwrap] (not ${which})`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

/**
 * The bubblewrap Mino runs: looked for only where Mino looks (BWRAP_CANDIDATES in
 * src/main/core/sandbox/availability.ts; a test keeps the two lists equal), never on
 * PATH, where `npm run` puts node_modules/.bin first. The profile names the real file.
 */
function trustedBwrap() {
  for (const candidate of BWRAP_CANDIDATES) {
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    const stat = statSync(real);
    if (stat.isFile() && stat.uid === 0 && (stat.mode & 0o022) === 0) return real;
  }
  throw new Error(`bubblewrap (bwrap) is not installed where Mino looks for it (${BWRAP_CANDIDATES.join(', ')}, owned by root): install it first (Debian and Ubuntu: sudo apt install bubblewrap).`);
}
