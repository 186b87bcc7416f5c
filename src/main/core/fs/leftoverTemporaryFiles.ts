// Removing what a write that was cut short (Mino killed mid-call) left in the
// project: its temporary file, holding some or all of the new content. Only
// files the session log names for that call are touched, and only when they
// are still what the write would have made: a regular file with a temporary
// name, in the same directory (same device and inode) it was planned in.
import * as fs from 'node:fs';
import { isTemporaryName } from './atomicWrite';
import { openDirectoryRoute, splitParent } from './directoryRoute';
import { errorCode } from './fsResult';
import { normalizeProjectPath } from './projectPath';
import { lstatOrNull } from './lstatOrNull';

export interface RecordedTemporaryFile {
  path: string;
  dir: string;
}

export interface LeftoverCleanup {
  /** Project paths of the temporary files removed. */
  removed: string[];
  /** Recorded files that were present but not removed, with why. */
  kept: string[];
}

export function removeLeftoverTemporaryFiles(root: string, recorded: readonly RecordedTemporaryFile[]): LeftoverCleanup {
  const cleanup: LeftoverCleanup = { removed: [], kept: [] };
  for (const entry of recorded) {
    const normalized = normalizeProjectPath(entry.path);
    if (!normalized.ok) continue;
    const { dir, name } = splitParent(normalized.path);
    if (!isTemporaryName(name)) continue;
    const opened = openDirectoryRoute(root, dir);
    // The directory is gone or no longer confined: nothing of this write can be reached safely.
    if (!opened.ok) continue;
    const route = opened.route;
    try {
      const dirStat = fs.fstatSync(route.fd);
      if (`${dirStat.dev}:${dirStat.ino}` !== entry.dir) {
        if (exists(route.at(name))) cleanup.kept.push(`${normalized.path} (its directory was replaced since the write)`);
        continue;
      }
      const stat = lstatOrNull(route.at(name));
      if (stat === null) continue;
      if (!stat.isFile()) {
        cleanup.kept.push(`${normalized.path} (not a regular file)`);
        continue;
      }
      const before = route.verify();
      if (before) continue;
      fs.unlinkSync(route.at(name));
      cleanup.removed.push(normalized.path);
    } catch (error) {
      cleanup.kept.push(`${normalized.path} (${errorCode(error) ?? String(error)})`);
    } finally {
      route.close();
    }
  }
  return cleanup;
}

function exists(file: string): boolean {
  return lstatOrNull(file) !== null;
}
