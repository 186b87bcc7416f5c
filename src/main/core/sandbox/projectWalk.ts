// The one walk of a project before a sandboxed command. In one pass over its
// folders it finds what the sandbox hides or keeps read-only (each name judged
// by the protected-path rules: protectedEntries.ts), every entry by which git
// finds a repository (gitWalk.ts), and a stamp of every folder it listed, by
// which the git guard tells afterwards which folders the command changed
// without reading the others again (gitRecheck.ts). The plan (plan.ts) and
// the guard (gitGuard.ts) both read its result.
//
// The walk follows no link and goes into every folder but a `.git` one:
// node_modules included, and the folders the sandbox hides too, since the
// command may move what holds them and the guard must know every repository.
import * as fs from 'node:fs/promises';
import { childPath, isDotGit, listFolder, repositoryEntriesIn, type RepositoryEntry } from './gitWalk';
import { inParallel } from './inParallel';
import * as path from 'node:path';
import type { ProjectPath } from '../fs/projectPath';
import { globCovers } from '../rules/pathGlob';
import { protectedEntryJudge, type ProtectedEntries, type Treatment } from './protectedEntries';

/** More entries than this and the walk stops: a sandbox that could not look everywhere would hide too little. */
export const MAX_ENTRIES = 300_000;

export class ProjectTooLargeError extends Error {
  constructor(maxEntries: number) {
    super(
      `the project has more than ${maxEntries.toLocaleString('en-US')} files and folders, ` +
        'too many to look through for protected files and git repositories before the command starts',
    );
    this.name = 'ProjectTooLargeError';
  }
}

/** Which folder is at a path, and when it last changed. */
export interface FolderStamp {
  /** Device and inode: another folder at the same path is one that replaced it. */
  id: string;
  /** Nanoseconds; moved to the current time by any entry made, removed or renamed in the folder, and by nothing a command can set. */
  ctimeNs: bigint;
  /** Nanoseconds; moved with ctime, but a command can set it back, so it only adds to ctime. */
  mtimeNs: bigint;
}

export interface FolderRecord {
  /** Null when it could not be stamped (this account may not look into its parent): then it is read again after the command, always. */
  stamp: FolderStamp | null;
  /** False for a folder this account could not list: the walk took it for empty (and the sandbox hides it). */
  listed: boolean;
  /** What its listing showed git: its `.git` entries, and itself when it looked like a bare repository. */
  repositories: RepositoryEntry[];
  /** Its real sub-folders (no link, no `.git`), each with a record of its own. */
  folders: string[];
}

export interface ProjectWalk {
  /** Real path of the project. */
  root: string;
  /** The wall clock just before the walk began, in nanoseconds: stamps this recent may share a clock tick with a later change. */
  startedAtNs: bigint;
  /** What the sandbox must hide or keep read-only (paths as found; links not yet resolved). */
  protectedEntries: ProtectedEntries;
  /** Every repository entry in the project. */
  repositories: RepositoryEntry[];
  /** Every folder listed (or found unlistable), by absolute path: the project itself, parents before children. */
  folders: Map<string, FolderRecord>;
}

/**
 * How much older than the walk a stamp (a folder's, or a settings file's)
 * must be to be believed. The kernel stamps ctime from a clock that ticks
 * every 1 to 10 ms, so a change the command makes can get the very ctime of
 * a change made just before the walk, in the same tick; a stamp that recent
 * proves nothing, and the entry is read again. Two seconds also covers file
 * systems that keep times to the second (ext3, HFS+) or to two (FAT). It
 * trusts the file system's clock to be this machine's: a network file system
 * whose server's clock lags by more than this, and keeps coarse times, could
 * hide a change in the same tick.
 */
export const SAME_TICK_MARGIN_NS = 2_000_000_000n;

/** Whether a ctime is clearly older than the walk that began at `startedAtNs`: only such a ctime, unchanged, proves nothing changed. */
export function clearlyBeforeWalk(ctimeNs: bigint, startedAtNs: bigint): boolean {
  return ctimeNs < startedAtNs - SAME_TICK_MARGIN_NS;
}

/**
 * Walks every level of `projectDir`. A folder the walk cannot list (EACCES or
 * EPERM: `chmod 000`, or `chmod 111`, which still lets a command that knows a
 * name inside open it) is hidden as a whole, like a protected directory: the
 * walk cannot tell what it holds, and the command may own it and open it up
 * again (chmod) once it has started. So a folder that answers EACCES fails
 * closed; the person's own copy is untouched. Nothing under a folder the
 * sandbox hides or keeps read-only is hidden again on its own.
 *
 * Throws ProjectTooLargeError past `maxEntries` (default MAX_ENTRIES; a test
 * may reach the limit without making that many files), and any error reading
 * the project folder itself: the command must not run then.
 */
export async function walkProject(projectDir: string, options: { maxEntries?: number; protectGlobs?: readonly string[] } = {}): Promise<ProjectWalk> {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const personProtects = personProtection(options.protectGlobs ?? []);
  const root = await fs.realpath(projectDir);
  const walk: ProjectWalk = {
    root,
    startedAtNs: BigInt(Date.now()) * 1_000_000n,
    protectedEntries: { maskedFiles: [], maskedDirs: [], readOnly: [] },
    repositories: [],
    folders: new Map(),
  };
  const judge = protectedEntryJudge();
  let visited = 0;
  // `hidden`: the folder lies in one the sandbox already hides or keeps read-only as a whole.
  await inParallel([{ dir: root, hidden: false }], async ({ dir, hidden }, more) => {
    // Stamped before it is listed, so a change after the listing shows in the stamp.
    const stamp = await stampOf(dir);
    if (dir === root && typeof stamp === 'string') throw new Error(`the project ${root} cannot be read (${stamp === 'gone' ? 'it is not a folder' : 'permission denied'})`);
    if (stamp === 'gone') return;
    const entries = await listFolder(dir, dir === root);
    if (entries === 'gone') return;
    const record: FolderRecord = { stamp: stamp === 'denied' ? null : stamp, listed: entries !== 'unreadable', repositories: [], folders: [] };
    walk.folders.set(dir, record);
    if (entries === 'unreadable') {
      if (!hidden) walk.protectedEntries.maskedDirs.push(dir);
      return;
    }
    visited += entries.length;
    if (visited > maxEntries) throw new ProjectTooLargeError(maxEntries);
    record.repositories = await repositoryEntriesIn(dir, entries);
    walk.repositories.push(...record.repositories);
    for (const entry of entries) {
      // Most entries are plain files no rule covers: for them nothing more is done, not even their path made.
      const directory = entry.isDirectory();
      const link = entry.isSymbolicLink();
      if (hidden && !directory) continue;
      const builtIn = hidden ? null : link ? await judge.link(entry, childPath(dir, entry.name)) : judge.entry(entry);
      const treatment = builtIn ?? (hidden ? null : personProtects(root, childPath(dir, entry.name), directory));
      if (treatment === null && !directory) continue;
      const full = childPath(dir, entry.name);
      if (treatment !== null) walk.protectedEntries[treatment].push(full);
      if (directory && !isDotGit(entry.name)) {
        record.folders.push(full);
        more({ dir: full, hidden: hidden || treatment !== null });
      }
    }
  });
  return walk;
}

/**
 * The person's `protect` rules (core/rules) as the walk applies them: an
 * entry a rule's glob covers is hidden like a built-in protected one (a file
 * shown empty, a folder empty). A link is judged by its own path; where it
 * leads is the project's or absent from the sandbox anyway.
 */
function personProtection(globs: readonly string[]): (root: string, full: string, directory: boolean) => Treatment | null {
  if (globs.length === 0) return () => null;
  return (root, full, directory) => {
    const rel = path.relative(root, full).split(path.sep).join('/') as ProjectPath;
    return globs.some((glob) => globCovers(glob, rel)) ? (directory ? 'maskedDirs' : 'maskedFiles') : null;
  };
}

/**
 * The stamp of the folder at `dir` as it is now: `gone` when nothing, or
 * something other than a folder, is there; `denied` when this account may
 * not look into its parent (EACCES, EPERM).
 */
export async function stampOf(dir: string): Promise<FolderStamp | 'gone' | 'denied'> {
  let stat;
  try {
    stat = await fs.lstat(dir, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    throw error;
  }
  return stat.isDirectory() ? { id: `${stat.dev}:${stat.ino}`, ctimeNs: stat.ctimeNs, mtimeNs: stat.mtimeNs } : 'gone';
}
