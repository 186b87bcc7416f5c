// The layout of ~/.mino and the private-file rules for everything in it:
// the directory is 0700, its files 0600, whatever the umask says.
import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const MINO_DIR_NAME = '.mino';
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export interface MinoPaths {
  /** ~/.mino */
  root: string;
  /** ~/.mino/config.json */
  config: string;
  /** ~/.mino/SOUL.md */
  soul: string;
  /** ~/.mino/sessions */
  sessions: string;
  /** ~/.mino/mcp.json */
  mcp: string;
  /** ~/.mino/recent-projects.json */
  recentProjects: string;
  /** ~/.mino/secrets.json (API key encrypted by the desktop app) */
  secrets: string;
  /** ~/.mino/locks: the file and session locks shared by every Mino process */
  locks: string;
  /** ~/.mino/logs: the desktop app's diagnostic trail, mino-YYYY-MM-DD.log, a week kept */
  logs: string;
}

export function minoPaths(homeDir: string): MinoPaths {
  const root = path.join(homeDir, MINO_DIR_NAME);
  return {
    root,
    config: path.join(root, 'config.json'),
    soul: path.join(root, 'SOUL.md'),
    sessions: path.join(root, 'sessions'),
    mcp: path.join(root, 'mcp.json'),
    recentProjects: path.join(root, 'recent-projects.json'),
    secrets: path.join(root, 'secrets.json'),
    locks: path.join(root, 'locks'),
    logs: path.join(root, 'logs'),
  };
}

/** The home directory, honouring HOME so tests and scripts can point it elsewhere. */
export function resolveHomeDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME ?? env.USERPROFILE;
  if (!home) throw new Error('Cannot find your home directory: set HOME and start Mino again.');
  return home;
}

/** Creates a private directory (0700) if missing and tightens it if it exists. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates ~/.mino and ~/.mino/sessions, both 0700, and removes the temporary
 * files a killed Mino left in them. Every session start and resume comes
 * through here (sessions/sessionLog.ts), so that is when they are swept; the
 * temporary files of ~/.mino/locks are swept when a session is locked
 * (locks/sessionLock.ts), those of ~/.mino/checkpoints whenever its size is
 * counted (checkpoints/preImageStore.ts).
 */
export async function ensureMinoHome(homeDir: string): Promise<MinoPaths> {
  const paths = minoPaths(homeDir);
  await ensurePrivateDir(paths.root);
  await ensurePrivateDir(paths.sessions);
  await removeOrphanedTempFiles(paths.root);
  await removeOrphanedTempFiles(paths.sessions);
  return paths;
}

// Temporary files in ~/.mino. A write publishes a file through a temporary
// one in the same directory; a writer killed in between leaves it behind,
// and nothing else would ever remove it (in ~/.mino/checkpoints it would even
// count against the undo history's size cap). Its name carries the writer's
// process id, so a later Mino can tell a leftover (its writer is gone) from a
// write in progress (its writer runs, in this process or another).
const TEMP_NAME = /^\..+\.(\d+)-[0-9a-f]{12}\.tmp$/;
// Written by a Mino before names carried the writer (and still by a few writers outside this file): the writer
// cannot be known, so one is a leftover once it is far older than any write takes.
const UNNAMED_WRITER_TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;
export const UNNAMED_WRITER_TEMP_AGE_MS = 60 * 60 * 1000;

/** The temporary file through which `file` is written: next to it, named for this process, random so two writes never collide. */
export function privateTempPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** Whether `name` is the name of a temporary file privateTempPath (or an older Mino) makes. */
export function isPrivateTempName(name: string): boolean {
  return TEMP_NAME.test(name) || UNNAMED_WRITER_TEMP_NAME.test(name);
}

export interface OrphanCheck {
  /** The temp file's modification time, for a name without its writer. */
  mtimeMs: number;
  now: number;
  /** Whether process `pid` runs; default: whether the system knows it. */
  isRunning?: (pid: number) => boolean;
}

/**
 * Whether the temporary file `name` is a leftover: its writer is gone (or,
 * for a name without one, it is over an hour old). Errs towards "in
 * progress": removing a live writer's file would fail its write, keeping a
 * leftover only keeps it until a later sweep.
 */
export function isOrphanedTemp(name: string, check: OrphanCheck): boolean {
  const named = TEMP_NAME.exec(name);
  if (named) return !(check.isRunning ?? processRuns)(Number(named[1]));
  return UNNAMED_WRITER_TEMP_NAME.test(name) && check.now - check.mtimeMs > UNNAMED_WRITER_TEMP_AGE_MS;
}

/**
 * Removes the leftover temporary files (isOrphanedTemp) directly in `dir`;
 * returns their names. Never fails: a directory that cannot be read, or a
 * file that cannot be removed, is left for the next sweep.
 */
export async function removeOrphanedTempFiles(dir: string, options: { now?: number; isRunning?: (pid: number) => boolean } = {}): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    // ignore: no directory (nothing written there yet) or an unreadable one has nothing this sweep may remove
    return [];
  }
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const name of names.filter(isPrivateTempName)) {
    const file = path.join(dir, name);
    try {
      const stat = await fs.lstat(file);
      if (!stat.isFile() || !isOrphanedTemp(name, { mtimeMs: stat.mtimeMs, now, ...(options.isRunning ? { isRunning: options.isRunning } : {}) })) continue;
      await fs.unlink(file);
      removed.push(name);
    } catch {
      // ignore: removed meanwhile by another sweep, or not removable now; the next sweep tries again
    }
  }
  return removed;
}

/** Whether process `pid` exists: only "no such process" says it does not (EPERM is someone else's live process). */
function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Replaces a small private file atomically (temp file, fsync, rename, fsync
 * directory), so a crash leaves the old or the new content, never a mixture.
 * Text is written as UTF-8; bytes as they are.
 */
export async function writePrivateFile(file: string, content: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  const temp = privateTempPath(file);
  const handle = await fs.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await fs.chmod(file, PRIVATE_FILE_MODE);
  const dirHandle = await fs.open(dir, constants.O_RDONLY);
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** ensurePrivateDir for the synchronous callers (the locks, taken on the write path). */
export function ensurePrivateDirSync(dir: string): void {
  fsSync.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fsSync.chmodSync(dir, PRIVATE_DIR_MODE);
}
