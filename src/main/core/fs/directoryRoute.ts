// A way to name entries of one verified project directory that a local
// process cannot redirect. Checking a path and then using it leaves a window
// in which a directory on it can be swapped for a link to elsewhere; so once
// the directory is open and verified, every later step (create, link,
// rename, unlink, list) goes through its descriptor instead of its path.
//
// On Linux that route is /proc/self/fd/<fd>/<name>: the kernel resolves it
// to the very directory that was opened, wherever it is now. Where no such
// route exists (no /proc: macOS, Windows, some containers) steps go by path
// and `verify` must be called after each one: it refuses as soon as the path
// no longer leads to the opened directory. That narrows the race to the
// moments between a step and its check; it cannot close it (see README).
// Listing is the exception: `openEntries` reaches the verified directory
// itself on every system (see openByIdentity).
import type { Dir, Stats } from 'node:fs';
import * as fs from 'node:fs';
import { errorText, log } from '../log/log';
import type { ProjectPath } from './projectPath';
import { checkDirectoryChain, closeReader, descriptorPath, openConfinedDirectory } from './confinedOpen';
import { errorCode, failed, type FsFailure } from './fsResult';
import { PROJECT_ROOT, projectPathParts } from './projectPath';

export interface DirectoryRoute {
  /** The verified directory's descriptor (for fsync). */
  readonly fd: number;
  /** True when `at` goes through the descriptor, so no swap can redirect it. */
  readonly pinned: boolean;
  /** The name to use for entry `name` of the directory (`''`: the directory itself). */
  at(name: string): string;
  /** Null while the route still leads to the verified directory; the refusal otherwise. Always null when pinned. */
  verify(): FsFailure | null;
  /** Opens the verified directory itself for reading its entries, wherever its path leads now; the caller closes it. */
  openEntries(): EntriesResult;
  close(): void;
}

export type RouteResult = { ok: true; route: DirectoryRoute } | FsFailure;
export type EntriesResult = { ok: true; dir: Dir } | FsFailure;

/** Opens project directory `dir` (confined, verified) and returns the route to its entries. */
export function openDirectoryRoute(root: string, dir: ProjectPath): RouteResult {
  const opened = openConfinedDirectory(root, dir);
  if (!opened.ok) return opened;
  const { fd, stat, absPath } = opened.entry;
  const pinned = descriptorPath(fd) !== null;
  const byDescriptor = `/proc/self/fd/${fd}`;
  return {
    ok: true,
    route: {
      fd,
      pinned,
      at: (name) => (pinned ? (name ? `${byDescriptor}/${name}` : byDescriptor) : name ? `${absPath}/${name}` : absPath),
      verify: () => {
        if (pinned) return null;
        const chain = checkDirectoryChain(root, entryOf(dir, 'x'));
        if (!chain.ok) return swapped(dir);
        try {
          const now = fs.lstatSync(absPath);
          return now.isDirectory() && now.dev === stat.dev && now.ino === stat.ino ? null : swapped(dir);
        } catch (error) {
          return failed(`${dir} could not be checked again (${errorCode(error) ?? String(error)}); Mino stopped.`);
        }
      },
      openEntries: () => (pinned ? openEntriesAt(dir, byDescriptor) : openByIdentity(dir, absPath, stat)),
      close: () => closeReader(fd),
    },
  };
}

function openEntriesAt(dir: ProjectPath, name: string): EntriesResult {
  try {
    return { ok: true, dir: fs.opendirSync(name) };
  } catch (error) {
    return failed(`could not list ${dir} (${errorCode(error) ?? String(error)}).`);
  }
}

/**
 * Opens the entries of the directory with `verified`'s device and inode,
 * where no route to its descriptor exists. Node cannot read entries through a
 * descriptor (it has no fdopendir), and checking the path before and after a
 * read by path misses a swap made and undone in between. But a process holds
 * one directory by identity, not by name: its working directory. So in one
 * synchronous step, which no other code of this process can interleave with,
 * this makes the path the working directory, checks that what it now stands
 * in is the verified directory (a swap shows here), opens "." (that very
 * directory, whatever its path leads to later) and goes back where it was.
 * The entries are then read from the handle, asynchronously.
 */
function openByIdentity(dir: ProjectPath, absPath: string, verified: Stats): EntriesResult {
  let home: string;
  try {
    home = process.cwd();
  } catch (error) {
    return failed(
      `${dir} could not be listed safely: Mino's own working directory no longer exists (${errorCode(error) ?? String(error)}). ` +
        'Tell the user to start Mino again from a folder that exists.',
    );
  }
  try {
    process.chdir(absPath);
  } catch (error) {
    return failed(`could not list ${dir} (${errorCode(error) ?? String(error)}).`);
  }
  try {
    const here = fs.statSync('.');
    if (here.dev !== verified.dev || here.ino !== verified.ino) return swapped(dir);
    return openEntriesAt(dir, '.');
  } catch (error) {
    return failed(`could not list ${dir} (${errorCode(error) ?? String(error)}).`);
  } finally {
    goBack(home);
  }
}

function goBack(home: string): void {
  try {
    process.chdir(home);
  } catch (error) {
    // Mino uses absolute paths throughout, so it works on from here; the trail says why the folder changed.
    log.warn('fs.working_directory_not_restored', { dir: home, error: errorText(error) });
  }
}

/** The project path of entry `name` of directory `dir`. */
export function entryOf(dir: ProjectPath, name: string): ProjectPath {
  return (dir === PROJECT_ROOT ? name : `${dir}/${name}`) as ProjectPath;
}

/** The directory holding `p`, and `p`'s own name in it. */
export function splitParent(p: ProjectPath): { dir: ProjectPath; name: string } {
  const parts = projectPathParts(p);
  const name = parts.pop() ?? '';
  return { dir: (parts.length === 0 ? PROJECT_ROOT : parts.join('/')) as ProjectPath, name };
}

function swapped(dir: ProjectPath): FsFailure {
  return failed(`the directory ${dir} was replaced or moved while Mino was using it; Mino stopped at once.`);
}
