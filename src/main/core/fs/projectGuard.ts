// Refuses projects that contain Mino's own data directory, or lie inside it.
// Opening the home directory as a project is the common case; without this
// check an unapproved read could send the API key or other sessions' history
// to the model service, and a write could forge a session's log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MINO_DIR_NAME } from '../config/minoHome';

/** Shown to the person (desktop picker, CLI) and returned by every file tool in such a project. */
export const MINO_HOME_OVERLAP_MESSAGE =
  "This project folder contains, or is inside, Mino's data directory (~/.mino), where your API key and the history " +
  'of every session are kept, so the file tools are turned off here: nothing can be read or written. ' +
  'Open the folder of one project instead, outside ~/.mino.';

/**
 * True when the project's real path is the home directory or one of its
 * ancestors, when ~/.mino itself resolves into the project, or when the
 * project is ~/.mino or inside it. Real paths are compared, so a symlinked
 * route counts.
 */
export async function projectOverlapsMinoHome(projectDir: string, homeDir: string): Promise<boolean> {
  return projectGuardFacts(projectDir, homeDir).overlapsMinoHome;
}

export interface ProjectDirCheck {
  overlapsMinoHome: boolean;
  /** The real path of the project directory (its resolved name if it does not exist). */
  realProjectDir: string;
}

/**
 * The guard's facts about a project directory, for callers that also need its
 * real path. Synchronous, because the file tools run it on every call: three
 * realpath(3) calls take microseconds, less than one thread-pool round trip.
 */
export function projectGuardFacts(projectDir: string, homeDir: string): ProjectDirCheck {
  const project = realOrResolved(projectDir);
  const home = realOrResolved(homeDir);
  const mino = realOrResolved(path.join(homeDir, MINO_DIR_NAME));
  const overlaps = isSameOrInside(home, project) || isSameOrInside(mino, project) || isSameOrInside(project, mino);
  return { overlapsMinoHome: overlaps, realProjectDir: project };
}

function isSameOrInside(candidate: string, dir: string): boolean {
  if (candidate === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return candidate.startsWith(prefix);
}

// A home or ~/.mino that does not exist yet is still compared by its
// resolved name: a project that would contain it must not be opened either.
// realpathSync.native is realpath(3), as fs.promises.realpath is.
function realOrResolved(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}
