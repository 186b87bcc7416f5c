// `npm run apparmor-profile [-- bwrap]`, run as the README tells a person to:
// the profile names this checkout's Electron binary, or the real file behind
// the first bwrap on PATH (a link resolved), and a wrong argument says so.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronBinaryPath, ROOT } from '../../../scripts/lib/electron.cjs';

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

  it('names the real bwrap behind a link on PATH, and says when there is none', async () => {
    const real = path.join(dir, 'real-bwrap');
    await fs.writeFile(real, '#!/bin/sh\n', { mode: 0o755 });
    await fs.mkdir(path.join(dir, 'bin'));
    await fs.symlink(real, path.join(dir, 'bin', 'bwrap'));
    const found = await run(['bwrap'], `relative/bin${path.delimiter}${path.join(dir, 'bin')}`);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(`profile mino-bwrap "${real}" flags=(unconfined) {`);
    const none = await run(['bwrap'], path.join(dir, 'empty'));
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/bubblewrap \(bwrap\) is not installed/);
  });

  it('refuses an argument it does not know', async () => {
    const { code, stderr } = await run(['chrome']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/usage: npm run --silent apparmor-profile \[-- electron\|bwrap\] \(not chrome\)/);
  });
});
