// Creates a project directory and its missing parents, one level at a time,
// never through a link: the plan (which parts exist, which are missing) is
// made from lstat of every part, and each new directory is checked after it
// is made, so a part swapped for a link meanwhile is caught.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { ProjectPath } from './projectPath';
import { closeReader, descriptorPath } from './confinedOpen';
import { errorCode, failed, refused, type FsFailure } from './fsResult';
import { projectPathParts, resolveInProject } from './projectPath';

export type DirectoryPlan = { ok: true; toCreate: ProjectPath[] } | FsFailure;

/** Why a creation stopped: a planned name was taken since the plan. The tool turns it into its changed-after-approval result. */
export const PLAN_CHANGED = 'plan-changed';

export type CreateResult = { ok: true; created: ProjectPath[]; note?: string } | FsFailure | { ok: false; kind: typeof PLAN_CHANGED; reason: string; created: ProjectPath[] };

const { constants } = fs;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const fsync = promisify(fs.fsync);

/**
 * The directories that creating `p` would make, outermost first; empty when
 * `p` already exists as a directory. Refuses a link or a non-directory in
 * any part.
 */
export function planDirectories(root: string, p: ProjectPath): DirectoryPlan {
  const parts = projectPathParts(p);
  for (let i = 0; i < parts.length; i++) {
    const prefix = parts.slice(0, i + 1).join('/') as ProjectPath;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(resolveInProject(root, prefix));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return failed(`could not check ${prefix} (${errorCode(error) ?? String(error)}).`);
      return { ok: true, toCreate: parts.slice(i).map((_, j) => parts.slice(0, i + j + 1).join('/') as ProjectPath) };
    }
    if (stat.isSymbolicLink()) {
      return refused(
        `${prefix}${prefix === p ? '' : ` (on the way to ${p})`} is a symbolic link; make_directory does not follow links, ` +
          'even to places inside the project. Use the path of the real directory.',
      );
    }
    if (!stat.isDirectory()) {
      return refused(`${prefix} is a file, not a directory, so ${p} cannot be created; choose another path.`);
    }
  }
  return { ok: true, toCreate: [] };
}

/** Creates `toCreate` (from planDirectories), outermost first, making each durable in its parent. */
export async function createDirectories(root: string, toCreate: readonly ProjectPath[]): Promise<CreateResult> {
  const created: ProjectPath[] = [];
  let note: string | undefined;
  for (const dir of toCreate) {
    const absPath = resolveInProject(root, dir);
    try {
      fs.mkdirSync(absPath);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST' || code === 'ENOENT' || code === 'ENOTDIR') {
        return { ok: false, kind: PLAN_CHANGED, reason: `${dir} changed before it could be created.`, created };
      }
      return failed(`could not create ${dir} (${code ?? String(error)})${createdSoFar(created)}.`);
    }
    created.push(dir);
    const verified = verifyCreated(dir, absPath);
    if (!verified.ok) return { ...verified, reason: `${verified.reason}${createdSoFar(created)}` };
    try {
      await syncDirectory(path.dirname(absPath));
    } catch (error) {
      note = `The directories exist, but Mino could not confirm they reached the disk (${errorCode(error) ?? String(error)}).`;
    }
  }
  return note === undefined ? { ok: true, created } : { ok: true, created, note };
}

/** The new directory must be a real directory at exactly the expected place: a parent swapped for a link would put it elsewhere. */
function verifyCreated(dir: ProjectPath, absPath: string): { ok: true } | FsFailure {
  let fd: number;
  try {
    fd = fs.openSync(absPath, constants.O_RDONLY | O_NOFOLLOW | O_DIRECTORY);
  } catch (error) {
    return failed(`${dir} could not be checked after it was created (${errorCode(error) ?? String(error)})`);
  }
  try {
    const located = descriptorPath(fd);
    if (located !== null && located !== absPath) return failed(`a directory on the path to ${dir} was replaced while it was being created`);
    return { ok: true };
  } finally {
    closeReader(fd);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const fd = fs.openSync(dir, constants.O_RDONLY | O_DIRECTORY);
  try {
    await fsync(fd);
  } finally {
    closeReader(fd);
  }
}

function createdSoFar(created: readonly ProjectPath[]): string {
  return created.length === 0 ? '; nothing was created' : `; already created: ${created.join(', ')}`;
}
