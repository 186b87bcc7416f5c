// list_dir where there is no /proc (the macOS and Windows route): the entries
// listed must be those of the directory that was checked, even when a local
// process swaps it for a link to an outside directory and back between the
// checks and the read. Raced for real under bwrap with an empty /proc.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tsxArgs } from '../../support/tsxChild';
import { makeTempProject, SENTINEL, type TempProject } from '../fs/tempProject';

const SWAPPER = path.resolve(__dirname, '../../support/directorySwapper.mjs');
const RACE = path.resolve(__dirname, 'fixtures/listRaceWithoutProc.ts');
const ROUNDS = 400_000;
const SWAP_MS = 5_000;

const hideProc = ['--bind', '/', '/', '--dev', '/dev', '--tmpfs', '/proc'];
const canHideProc = process.platform === 'linux' && spawnSync('bwrap', [...hideProc, 'true']).status === 0;

let t: TempProject;
beforeEach(async () => {
  t = await makeTempProject();
  await t.write('sub/inside.txt', 'inside\n');
  // A name only the outside directory has: a listing that shows it listed outside.
  await fs.writeFile(path.join(t.outside, 'outside-only.txt'), `${SENTINEL}\n`);
});
afterEach(() => t.cleanup());

it.skipIf(!canHideProc)(
  'without /proc, a directory swapped for an outside link and back never makes list_dir list the outside one',
  async () => {
    const child = spawn('bwrap', [...hideProc, process.execPath, ...tsxArgs(RACE, t.project, t.outside, t.home, SWAPPER, String(ROUNDS), String(SWAP_MS))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    const summary = JSON.parse(out.trim().split('\n').at(-1)!) as { proc: boolean; listed: number; swaps: number; outsideListings: string[]; cwdKept: boolean };
    expect(summary.proc).toBe(false);
    expect(summary.outsideListings).toEqual([]);
    // The listing passes through the directory as the working directory, and goes back.
    expect(summary.cwdKept).toBe(true);
    // The race really ran, and list_dir really listed during it.
    expect(summary.swaps).toBeGreaterThan(0);
    expect(summary.listed).toBeGreaterThan(0);
  },
  60_000,
);
