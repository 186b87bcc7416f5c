// What one sandboxed command may see and change, worked out when it starts.
// Both platform back ends (bwrapArgs.ts, seatbeltProfile.ts) turn this one
// plan into their own syntax, so the rules are decided once.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MINO_DIR_NAME } from '../config/minoHome';
import { findProtectedEntries, type ProtectedEntries } from './protectedEntries';

export interface SandboxPlan {
  /** Absolute, real path: the only place the command may write (besides its private temp). */
  projectDir: string;
  /** Inside the project: `.git` entries, readable but never written. */
  readOnly: string[];
  /** Files shown empty: protected files of the project and the person's secret files. */
  maskedFiles: string[];
  /** Directories shown empty: ~/.mino, ~/.ssh, ... and protected directories of the project. */
  maskedDirs: string[];
}

/**
 * `homeDirs` are every directory that counts as the person's home (the one
 * Mino uses and the account's own, when they differ). In each, ~/.mino and
 * every direct entry a protected rule covers (~/.ssh, ~/.aws, ~/.gnupg,
 * ~/.netrc, ~/.npmrc, ~/.pypirc, ...) is masked; the whole project is searched.
 * A project with more entries than `maxProjectEntries` (default MAX_ENTRIES,
 * 300,000) is refused with a ProtectedEntriesError, so its commands do not run.
 */
export async function planSandbox(projectDir: string, homeDirs: readonly string[], limits: { maxProjectEntries?: number } = {}): Promise<SandboxPlan> {
  const project = await findProtectedEntries(projectDir, { recursive: true, ...(limits.maxProjectEntries === undefined ? {} : { maxEntries: limits.maxProjectEntries }) });
  const plan: SandboxPlan = { projectDir, readOnly: [...project.readOnly], maskedFiles: [...project.maskedFiles], maskedDirs: [...project.maskedDirs] };

  for (const home of await realPaths(homeDirs)) {
    const entries: ProtectedEntries = await findProtectedEntries(home, { recursive: false });
    plan.maskedFiles.push(...entries.maskedFiles);
    plan.maskedDirs.push(...entries.maskedDirs);
    const minoDir = path.join(home, MINO_DIR_NAME);
    if (await isDirectory(minoDir)) plan.maskedDirs.push(minoDir);
  }
  // Links are judged by their names but mounted (and matched by Seatbelt) at their targets.
  return {
    projectDir,
    readOnly: await realPaths(plan.readOnly),
    maskedFiles: await realPaths(plan.maskedFiles),
    maskedDirs: await realPaths(plan.maskedDirs),
  };
}

async function realPaths(dirs: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const dir of dirs) {
    try {
      real.push(await fs.realpath(dir));
    } catch {
      // ignore: gone since it was found (or a home that does not exist), or unreachable by this user and so by the command: nothing there to hide
    }
  }
  return unique(real);
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
