// Lists one project directory: the entries of the directory that was checked
// and opened, never of whatever a swapped path would lead to.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
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
  const dir = opened.route;
  try {
    // Read through the verified descriptor where the system offers a route
    // to it; never by a path that may lead elsewhere now. Where it offers
    // none, the path is checked before and after the read (see
    // directoryRoute.ts). The listing stays asynchronous: a directory may be large.
    const before = dir.verify();
    if (before) return before;
    const dirents = await fs.readdir(dir.at(''), { withFileTypes: true });
    const after = dir.verify();
    if (after) return failed(`${p} was replaced while it was being listed; try the call again.`);
    return { ok: true, entries: sortEntries(dirents.map(toEntry)) };
  } catch (error) {
    return failed(`could not list ${p} (${errorCode(error) ?? String(error)}).`);
  } finally {
    dir.close();
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
