// Lists one project directory: the entries of the directory that was checked
// and opened, never of whatever a swapped path would lead to.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { ProjectPath } from './projectPath';
import { closeReader, descriptorPath, openConfinedDirectory } from './confinedOpen';
import { errorCode, failed, type FsFailure } from './fsResult';

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

export interface DirectoryEntry {
  name: string;
  kind: EntryKind;
}

export type ListResult = { ok: true; entries: DirectoryEntry[] } | FsFailure;

/** The entries of directory `p`, directories first, then by name (code-point order, so stable everywhere). */
export async function listProjectDirectory(root: string, p: ProjectPath): Promise<ListResult> {
  const opened = openConfinedDirectory(root, p);
  if (!opened.ok) return opened;
  const { fd, stat, absPath } = opened.entry;
  try {
    // On Linux, reading through the descriptor's /proc name lists the very
    // directory that was verified; elsewhere the path is read and its identity
    // checked again afterwards. The listing stays asynchronous: a directory
    // may be large.
    const viaDescriptor = descriptorPath(fd) === absPath;
    const dirents = await fs.readdir(viaDescriptor ? `/proc/self/fd/${fd}` : absPath, { withFileTypes: true });
    if (!viaDescriptor) {
      const after = await fs.lstat(absPath);
      if (after.dev !== stat.dev || after.ino !== stat.ino || !after.isDirectory()) {
        return failed(`${p} was replaced while it was being listed; try the call again.`);
      }
    }
    return { ok: true, entries: sortEntries(dirents.map(toEntry)) };
  } catch (error) {
    return failed(`could not list ${p} (${errorCode(error) ?? String(error)}).`);
  } finally {
    closeReader(fd);
  }
}

export function sortEntries(entries: DirectoryEntry[]): DirectoryEntry[] {
  return [...entries].sort((a, b) => {
    const dirOrder = Number(b.kind === 'dir') - Number(a.kind === 'dir');
    if (dirOrder !== 0) return dirOrder;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
}

function toEntry(dirent: Dirent): DirectoryEntry {
  const kind: EntryKind = dirent.isSymbolicLink() ? 'link' : dirent.isDirectory() ? 'dir' : dirent.isFile() ? 'file' : 'other';
  return { name: dirent.name, kind };
}

/** A name as a listing line shows it: JSON-quoted when it has control characters or edge spaces, so it cannot forge lines. */
export function displayName(name: string): string {
  return /[\u0000-\u001f\u007f]|^\s|\s$|^"/.test(name) ? JSON.stringify(name) : name;
}
