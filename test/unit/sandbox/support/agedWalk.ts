// A walk of a tree a test has just made, as if the tree were old. Every stamp
// of a tree made seconds ago falls inside the git guard's same-tick margin,
// so the check after a command would read every folder and its cheap path
// would never run. Aged, the walk's start is moved an hour on; and before the
// "command" the test waits for the kernel's timestamp clock to tick past the
// walk's newest stamp, as it has in real use, where a tree is not changed in
// the same few milliseconds as it is walked.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { walkProject, type ProjectWalk } from '../../../../src/main/core/sandbox/projectWalk';

export const HOUR_NS = 3_600_000_000_000n;

/** The walk of `projectDir`, its start moved an hour on: every stamp in it is clearly older. */
export async function agedWalk(projectDir: string, options: { maxEntries?: number } = {}): Promise<ProjectWalk> {
  const walk = await walkProject(projectDir, options);
  walk.startedAtNs += HOUR_NS;
  return walk;
}

/** Waits until a change made now gets a later ctime than any the walk recorded (see pastStamp). */
export async function pastNewestStamp(walk: ProjectWalk, scratchDir: string): Promise<void> {
  const newest = [...walk.folders.values()].reduce((max, folder) => (folder.stamp && folder.stamp.ctimeNs > max ? folder.stamp.ctimeNs : max), 0n);
  await pastStamp(newest, scratchDir);
}

/**
 * Waits until a change made now gets a later ctime than `ctimeNs` (the
 * kernel's clock for file times ticks every few ms), by rewriting a probe in
 * `scratchDir` (outside the project, on the same disk) until its own ctime
 * has passed it: at most one tick.
 */
export async function pastStamp(ctimeNs: bigint, scratchDir: string): Promise<void> {
  const probe = path.join(scratchDir, 'clock-probe');
  for (;;) {
    await fs.writeFile(probe, '');
    if ((await fs.lstat(probe, { bigint: true })).ctimeNs > ctimeNs) return;
  }
}
