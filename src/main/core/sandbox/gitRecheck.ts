// The git guard's look at the project after a sandboxed command: a cheap
// check against the walk before it (projectWalk.ts), not a second walk of
// everything. Making, removing or renaming an entry in a folder moves that
// folder's ctime to the current time, and no command can set a ctime back
// (utimensat sets it to now). So a folder whose device, inode, ctime and
// mtime are as the walk recorded them holds the entries it held then: it is
// not read again, its `.git` entries are where they were (only their text is
// read again, since a `.git` file can be rewritten in place), and its
// sub-folders are checked the same way. A folder that changed is read again;
// a folder that is new at its path (made, or moved in from elsewhere) is
// walked whole, as the walk before would have been. Each folder they list is
// judged for repositories exactly as before the command (gitWalk.ts).
import { childPath, describe, GitWalkLimitError, isDotGit, listFolder, repositoryEntriesIn, type RepositoryEntry } from './gitWalk';
import { inParallel } from './inParallel';
import { clearlyBeforeWalk, stampOf, type FolderStamp, type ProjectWalk } from './projectWalk';

/** Whether a folder stamped `before` by the walk that began at `startedAtNs`, and `now` after the command, surely holds the same entries. */
export function unchangedSince(before: FolderStamp | null, now: FolderStamp | 'gone' | 'denied', startedAtNs: bigint): boolean {
  if (before === null || typeof now === 'string') return false;
  if (before.id !== now.id || before.ctimeNs !== now.ctimeNs || before.mtimeNs !== now.mtimeNs) return false;
  return clearlyBeforeWalk(before.ctimeNs, startedAtNs);
}

export interface RecheckOptions {
  /** Entries the folders read again may hold together (a command may add many: npm install); more and the check throws GitWalkLimitError. */
  maxEntries: number;
  /** Whether to look inside a `.git` folder found (one that may hide a moved original). */
  enterDotGit: (entry: RepositoryEntry) => boolean;
}

export interface Recheck {
  /** Every repository entry in the project now. */
  repositories: RepositoryEntry[];
  /** The folders it listed (changed, stamped too recently, or new), in the order read: what the check cost. */
  read: string[];
}

/**
 * `check`: a folder the walk recorded, reached through folders that are
 * still real folders at their paths (so its path leads where it did);
 * `whole`: a folder the walk did not see there, walked whole.
 */
interface Visit {
  dir: string;
  how: 'check' | 'whole';
}

/** The repository entries of the project as the command left it. Throws GitWalkLimitError past the limit, or an error reading the project folder. */
export async function recheckRepositories(walk: ProjectWalk, options: RecheckOptions): Promise<Recheck> {
  const repositories: RepositoryEntry[] = [];
  const read: string[] = [];
  let visited = 0;
  await inParallel<Visit>([{ dir: walk.root, how: 'check' }], async ({ dir, how }, more) => {
    const record = how === 'check' ? walk.folders.get(dir) : undefined;
    if (record && unchangedSince(record.stamp, await stampOf(dir), walk.startedAtNs)) {
      repositories.push(...(await asTheyAreNow(record.repositories)));
      for (const folder of record.folders) more({ dir: folder, how: 'check' });
      return;
    }
    const entries = await listFolder(dir, dir === walk.root);
    // Gone, or one this account cannot list: taken for empty, as the walk before took it.
    if (!Array.isArray(entries)) return;
    read.push(dir);
    visited += entries.length;
    if (visited > options.maxEntries) throw new GitWalkLimitError(options.maxEntries);
    const found = await repositoryEntriesIn(dir, entries);
    repositories.push(...found);
    for (const entry of found) {
      if (entry.kind === 'dotgit' && entry.type === 'directory' && options.enterDotGit(entry)) more({ dir: entry.path, how: 'whole' });
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || isDotGit(entry.name)) continue;
      const full = childPath(dir, entry.name);
      more({ dir: full, how: how === 'check' && walk.folders.has(full) ? 'check' : 'whole' });
    }
  });
  return { repositories, read };
}

/** The entries an unchanged folder showed: in place, but a `.git` file's text is read again. */
async function asTheyAreNow(entries: readonly RepositoryEntry[]): Promise<RepositoryEntry[]> {
  const now: RepositoryEntry[] = [];
  for (const entry of entries) {
    const current = entry.kind === 'bare' ? entry : await describe(entry.path, 'dotgit');
    if (current) now.push(current);
  }
  return now;
}
