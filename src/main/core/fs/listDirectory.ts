// Lists one project directory: the entries of the directory that was checked
// and opened, never of whatever a swapped path would lead to.
import type { Dirent } from 'node:fs';
import type { ProjectPath } from './projectPath';
import { openDirectoryRoute } from './directoryRoute';
import { errorCode, failed, type FsFailure } from './fsResult';

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

export interface DirectoryEntry {
  name: string;
  kind: EntryKind;
}

export type ListResult = { ok: true; entries: DirectoryEntry[] } | FsFailure;

/** The entries of directory `p`, directories first, then by name (code-point order, so stable everywhere). */
export async function listProjectDirectory(root: string, p: ProjectPath): Promise<ListResult> {
  const opened = openDirectoryRoute(root, p);
  if (!opened.ok) return opened;
  const route = opened.route;
  try {
    // The verified directory itself, never whatever its path leads to now
    // (directoryRoute.ts). The reading stays asynchronous: a directory may be large.
    const entries = route.openEntries();
    if (!entries.ok) return entries;
    const dirents: Dirent[] = [];
    // The iteration closes the handle when it ends, also on an error.
    for await (const dirent of entries.dir) dirents.push(dirent);
    return { ok: true, entries: sortEntries(dirents.map(toEntry)) };
  } catch (error) {
    return failed(`could not list ${p} (${errorCode(error) ?? String(error)}).`);
  } finally {
    route.close();
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
