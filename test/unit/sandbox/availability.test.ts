// Only a bubblewrap that root alone can change builds the sandbox: one that
// another account could swap would run every command unconfined while Mino
// reports a sandbox. Real files in a temp folder stand in for the system's
// candidates; the owners are set with chown, so these run as root (as CI does).
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BWRAP_CANDIDATES, sandboxAvailability } from '../../../src/main/core/sandbox/availability';
import { trustedProgram } from '../../../src/main/core/sandbox/trustedProgram';

const AS_ROOT = process.getuid?.() === 0;
if (!AS_ROOT) console.warn('Trusted-bwrap tests skipped: they chown files to root and to nobody, so they need root');

/** A stand-in that fails the probe the way a kernel without user namespaces does: enough to tell it was run. */
const FAILING_BWRAP = '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n';

let root: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-trusted-')));
});
afterEach(async () => fs.rm(root, { recursive: true, force: true }));

async function program(rel: string, options: { mode?: number; uid?: number } = {}): Promise<string> {
  const file = path.join(root, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, FAILING_BWRAP);
  await fs.chmod(file, options.mode ?? 0o755);
  if (options.uid !== undefined) await fs.chown(file, options.uid, options.uid);
  return file;
}

describe('the bwrap Mino looks for', () => {
  it('is looked for in system folders only, never on PATH', () => {
    expect(BWRAP_CANDIDATES).toEqual(['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap', '/run/current-system/sw/bin/bwrap']);
  });
});

describe.skipIf(!AS_ROOT)('a bwrap candidate', () => {
  it('owned by root, in folders only root can change, is trusted at its real path', async () => {
    const file = await program('sbin/bwrap');
    await fs.symlink(file, path.join(root, 'link'));
    expect(await trustedProgram(path.join(root, 'link'))).toEqual({ real: file });
  });

  it('writable by others is refused with the reason, and no other candidate is found', async () => {
    const file = await program('bin/bwrap', { mode: 0o757 });
    expect(await sandboxAvailability('linux', [file])).toEqual({
      available: false,
      reason: expect.stringContaining(`another account could replace it and so run commands outside any sandbox: ${file} is writable by others`),
    });
  });

  it('owned by uid 65534 is refused with the reason', async () => {
    const file = await program('bin/bwrap', { uid: 65534 });
    const availability = await sandboxAvailability('linux', [file]);
    expect(availability).toMatchObject({ available: false });
    if (!availability.available) expect(availability.reason).toContain(`${file} is owned by user 65534, not root`);
  });

  it('in a folder writable by its group, or reached through a link in a folder others can write, is refused', async () => {
    const inGroupFolder = await program('group/bwrap');
    await fs.chmod(path.dirname(inGroupFolder), 0o775);
    expect(await trustedProgram(inGroupFolder)).toEqual({ problem: `${path.dirname(inGroupFolder)} is writable by its group (group 0)` });

    const target = await program('safe/bwrap');
    const open = path.join(root, 'open');
    await fs.mkdir(open, { mode: 0o777 });
    await fs.chmod(open, 0o777);
    await fs.symlink(target, path.join(open, 'bwrap'));
    expect(await trustedProgram(path.join(open, 'bwrap'))).toEqual({ problem: `${open} is writable by others` });
  });

  it('is trusted in a sticky folder writable by all (as /tmp or /nix/store), where only root may rename what root owns', async () => {
    const sticky = path.join(root, 'store');
    await fs.mkdir(sticky);
    await fs.chmod(sticky, 0o1777);
    const file = await program('store/pkg/bin/bwrap');
    expect(await trustedProgram(file)).toEqual({ real: file });
  });

  it('passed over for the next trusted one, which is then used', async () => {
    const bad = await program('bad/bwrap', { mode: 0o777 });
    const good = await program('good/bwrap');
    const availability = await sandboxAvailability('linux', [path.join(root, 'missing/bwrap'), bad, good], path.join(root, 'no-apparmor-switch'));
    // The good one ran: its probe failure is the reason now, not the bad one's ownership.
    expect(availability).toMatchObject({ available: false, reason: expect.stringContaining('bwrap: No permissions to create new namespace') });
  });
});

describe('the sandbox this machine has', () => {
  it('names the program that builds it and its version', async () => {
    const availability = await sandboxAvailability();
    if (!availability.available) {
      console.warn(`Version check skipped: ${availability.reason}`);
      return;
    }
    expect(availability.version).toMatch(availability.kind === 'bwrap' ? /^bubblewrap \d/ : /^macOS sandbox-exec$/);
    expect(BWRAP_CANDIDATES.includes(availability.program) || availability.kind === 'seatbelt' || availability.program.startsWith('/nix/store/')).toBe(true);
  });
});
