// What git takes for a repository, judged one folder listing at a time: each
// entry named `.git` (a repository folder, a `gitdir:` file, a link: whatever
// it is) and each folder git itself takes for a repository (a bare one: HEAD
// beside objects/ and refs/, or beside a commondir file). Git looks for both
// in the folder it runs in and in every folder above it, so a sandboxed
// command that leaves one behind chooses the settings the person's next git
// command runs with, outside the sandbox. The walk before the command
// (projectWalk.ts) and the check after it (gitRecheck.ts) both judge each
// folder they list here, so they cannot disagree on what they look for.
import type { Dirent } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export type EntryType = 'directory' | 'file' | 'symlink' | 'other';

export interface RepositoryEntry {
  /** Absolute path. */
  path: string;
  /** `dotgit`: found by its name; `bare`: a folder whose contents make git take it for a repository. */
  kind: 'dotgit' | 'bare';
  type: EntryType;
  /** Device and inode: the same entry under another name is one that was moved. */
  id: string;
  /** A `.git` file's text (its `gitdir:` line) or a `.git` link's target: tells a rewritten one from the original. */
  content?: string;
  /** For a bare one: the name of its HEAD entry, whose removal makes git no longer take the folder for a repository. */
  head?: string;
}

/** Thrown when the check after a command meets more entries than it may read: it could not look everywhere. */
export class GitWalkLimitError extends Error {
  constructor(maxEntries: number) {
    super(`the project has more than ${maxEntries.toLocaleString('en-US')} files and folders, too many to look through for git repositories`);
    this.name = 'GitWalkLimitError';
  }
}

/** A `.git` file is one line; anything longer is kept as its size only. */
const MAX_POINTER_BYTES = 64 * 1024;

/**
 * Git finds `.git` and HEAD by name, and on a case-insensitive disk (macOS)
 * `.GIT` and `head` too. `lowerCase` is the name in lower case. Asked of every
 * entry of the project, so the length is compared first.
 */
const named = (name: string, lowerCase: string) => name.length === lowerCase.length && name.toLowerCase() === lowerCase;

/** Whether git would look at an entry of this name as a repository (so the walks never go into it). */
export const isDotGit = (name: string) => named(name, '.git');

/**
 * The repository entries that the listing `entries` of `dir` shows: the
 * folder itself when git would take it for a bare repository, then each of
 * its `.git` entries, described as they are now.
 */
export async function repositoryEntriesIn(dir: string, entries: readonly Dirent[]): Promise<RepositoryEntry[]> {
  const found: RepositoryEntry[] = [];
  const head = entries.find((entry) => named(entry.name, 'head'));
  const has = (name: string) => entries.some((entry) => named(entry.name, name));
  if (head && !isDotGit(path.basename(dir)) && (has('commondir') || (has('objects') && has('refs')))) {
    const bare = await describe(dir, 'bare');
    if (bare) found.push({ ...bare, head: head.name });
  }
  for (const entry of entries) {
    if (!isDotGit(entry.name)) continue;
    const dotgit = await describe(childPath(dir, entry.name), 'dotgit');
    if (dotgit) found.push(dotgit);
  }
  return found;
}

/**
 * A folder's entries; `unreadable` when this account may not list it (a
 * folder it cannot list is one a command run as the same account could not
 * write either), `gone` when it was removed or replaced by a file since its
 * parent was read. `root`: any error is thrown instead, since a project that
 * cannot be read cannot be vouched for.
 */
export async function listFolder(dir: string, root = false): Promise<Dirent[] | 'unreadable' | 'gone'> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!root && (code === 'EACCES' || code === 'EPERM')) return 'unreadable';
    if (!root && (code === 'ENOENT' || code === 'ENOTDIR')) return 'gone';
    throw error;
  }
}

/** The entry at `full` as it is now; null when it is gone. */
export async function describe(full: string, kind: RepositoryEntry['kind']): Promise<RepositoryEntry | null> {
  let stat;
  try {
    stat = await fs.lstat(full);
  } catch {
    // ignore: removed since its folder was listed, so there is nothing to find
    return null;
  }
  const type: EntryType = stat.isDirectory() ? 'directory' : stat.isFile() ? 'file' : stat.isSymbolicLink() ? 'symlink' : 'other';
  const entry: RepositoryEntry = { path: full, kind, type, id: `${stat.dev}:${stat.ino}` };
  if (type === 'symlink') entry.content = await fs.readlink(full).catch(() => '');
  if (type === 'file') {
    entry.content = stat.size <= MAX_POINTER_BYTES ? await fs.readFile(full, 'utf8').catch(() => '') : `(${stat.size} bytes, changed ${stat.mtimeMs})`;
  }
  return entry;
}

/** `path.join` for a name just listed in `dir`: the same path, without the normalising it needs not (the walks make one for many entries). */
export function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** Whether `entry` is `inside` itself or lies within it. */
export function isSameOrInside(entry: string, inside: string): boolean {
  return entry === inside || entry.startsWith(inside.endsWith(path.sep) ? inside : inside + path.sep);
}

/** An error as a report line names it: its code (ENOENT, EACCES) or its message. */
export function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
}
