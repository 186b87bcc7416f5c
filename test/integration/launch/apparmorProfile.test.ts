// `npm run apparmor-profile [-- bwrap]`, run as the README tells a person to:
// the profile names this checkout's Electron binary, or the real file of the
// bwrap Mino runs (never one on PATH), and a wrong argument says so.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronBinaryPath, ROOT } from '../../../scripts/lib/electron.cjs';
import { BWRAP_CANDIDATES as SCRIPT_BWRAP_CANDIDATES } from '../../../scripts/lib/linuxSandbox.mjs';
import { BWRAP_CANDIDATES, sandboxAvailability } from '../../../src/main/core/sandbox/availability';

const SCRIPT = path.join(ROOT, 'scripts', 'apparmorProfile.mjs');
let dir: string;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-apparmor-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function run(args: string[], PATH = process.env.PATH ?? ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...process.env, PATH } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run apparmor-profile', () => {
  it("prints a profile granting userns to this checkout's Electron binary", async () => {
    const { code, stdout } = await run([]);
    expect(code).toBe(0);
    expect(stdout).toContain(`profile mino-electron "${electronBinaryPath()}" flags=(unconfined) {`);
    expect(stdout).toMatch(/^\s+userns,$/m);
  });

  it('names the bwrap Mino runs, never one planted first on PATH', async () => {
    const fake = path.join(dir, 'bin', 'bwrap');
    await fs.mkdir(path.dirname(fake));
    await fs.writeFile(fake, '#!/bin/sh\n', { mode: 0o755 });
    const result = await run(['bwrap'], `${path.dirname(fake)}${path.delimiter}${process.env.PATH ?? ''}`);
    const mino = await sandboxAvailability('linux');
    if (mino.available) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`profile mino-bwrap "${await fs.realpath(mino.program)}" flags=(unconfined) {`);
    } else {
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/bubblewrap \(bwrap\) is not installed where Mino looks for it/);
    }
    expect(result.stdout).not.toContain(fake);
  });

  it('looks for bwrap exactly where Mino does', () => {
    expect(SCRIPT_BWRAP_CANDIDATES).toEqual(BWRAP_CANDIDATES);
  });

  it('refuses an argument it does not know', async () => {
    const { code, stderr } = await run(['chrome']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/usage: npm run --silent apparmor-profile \[-- electron\|bwrap\] \(not chrome\)/);
  });
});
