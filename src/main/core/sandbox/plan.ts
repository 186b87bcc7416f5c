// What one sandboxed command may see and change, worked out when it starts.
// Both platform back ends (bwrapArgs.ts, seatbeltProfile.ts) turn this one
// plan into their own syntax, so the rules are decided once.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { walkProject, type ProjectWalk } from './projectWalk';
import { byDepth, isSameOrInside, resolveReadableHome } from './readableHome';

export interface SandboxPlan {
  /** Absolute, real path: the only place the command may write (besides its private temp and its empty homes). */
  projectDir: string;
  /** Real paths of the person's homes: each is shown empty but for `readable` (and the project, if it lies inside). */
  homes: string[];
  /** What the person allows a command to read in (or outside) a home: real paths, read-only, parents first. */
  readable: string[];
  /** Links inside a home that lead to a readable entry, recreated so the names the person uses still work. */
  readableLinks: Array<{ path: string; target: string }>;
  /** Inside the project: `.git` entries, readable but never written. */
  readOnly: string[];
  /** Files shown empty: the project's protected files. */
  maskedFiles: string[];
  /** Directories shown empty: the project's protected directories, and those the search could not list. */
  maskedDirs: string[];
}

export interface PlanOptions {
  /** Absolute paths the command may read in the homes; default: DEFAULT_SANDBOX_READABLE in each home. */
  readableHome?: readonly string[];
  /** A project with more entries is refused (default MAX_ENTRIES, 300,000); lets a test reach the limit. */
  maxProjectEntries?: number;
  /** The walk of the project (or the walk under way: the bash tool shares one with the git guard); when absent the plan walks the project itself. */
  walk?: ProjectWalk | Promise<ProjectWalk>;
}

/**
 * `homeDirs` are every directory that counts as the person's home (the one
 * Mino uses and the account's own, when they differ); those that do not exist
 * are left out. The whole project is searched for protected entries; a project
 * with more entries than the limit is refused with a ProjectTooLargeError, so
 * its commands do not run. So is a project that holds a home: it would show
 * that home (and ~/.mino) whole.
 */
export async function planSandbox(projectDir: string, homeDirs: readonly string[], options: PlanOptions = {}): Promise<SandboxPlan> {
  const homes = (await realPaths(homeDirs)).filter((home) => home !== path.parse(home).root).sort(byDepth);
  const held = homes.find((home) => isSameOrInside(home, projectDir));
  if (held !== undefined) {
    throw new Error(`the project ${projectDir} holds the home folder ${held}, whose secrets a sandboxed command must not see; open a project folder inside it instead`);
  }
  // Both wait on the disk, not on each other.
  const [project, { readable, links }] = await Promise.all([
    Promise.resolve(options.walk ?? walkProject(projectDir, { maxEntries: options.maxProjectEntries })).then((walk) => walk.protectedEntries),
    resolveReadableHome(options.readableHome, homes),
  ]);
  // Links are judged by their names but mounted (and matched by Seatbelt) at their targets.
  return {
    projectDir,
    homes,
    readable,
    readableLinks: links,
    readOnly: await realPaths(project.readOnly),
    maskedFiles: await realPaths(project.maskedFiles),
    maskedDirs: await realPaths(project.maskedDirs),
  };
}

/**
 * Every folder inside the project that holds one of `entries` (not the
 * project itself, which cannot be renamed from inside), parents first.
 * Renaming one would carry a read-only `.git` or a masked file away under a
 * new name, and let a fresh one take its place.
 */
export function foldersHolding(entries: readonly string[], projectDir: string): string[] {
  const folders = new Set<string>();
  for (const entry of entries) {
    let dir = path.dirname(entry);
    while (dir !== projectDir && dir.startsWith(projectDir + path.sep)) {
      folders.add(dir);
      dir = path.dirname(dir);
    }
  }
  return [...folders].sort();
}

async function realPaths(entries: readonly string[]): Promise<string[]> {
  const real: string[] = [];
  for (const entry of entries) {
    try {
      real.push(await fs.realpath(entry));
    } catch {
      // ignore: gone since it was found (or a home that does not exist), or unreachable by this user and so by the command: nothing there to hide
    }
  }
  return [...new Set(real)];
}
