// Opens files and directories inside the project without ever following a
// symbolic link, blocking on a special file, or being fooled by a swap between
// the check and the open.
//
// Node has no openat(2), so confinement is built from three layers:
//   1. lstat every part of the path: each directory must be a real directory
//      (chapter 10: a link named "docs" that points at ".git" must not make
//      "docs/config" look harmless), the final part must be the expected kind;
//   2. open with O_NOFOLLOW | O_NONBLOCK, so a link that appeared is refused
//      and a FIFO cannot block;
//   3. fstat the descriptor and require the same device and inode that were
//      checked, and on Linux require that /proc/self/fd/N names exactly the
//      checked location, which catches a directory swapped for a link.
//
// The calls here are synchronous on purpose. Each is one metadata system
// call (or a read of at most 64 KiB, in readText.ts) that takes a few
// microseconds on a local disk, while a round trip through libuv's thread
// pool costs tens to a hundred; a confined read makes about six of them in
// sequence. What can take milliseconds, fsync, stays asynchronous
// (atomicWrite.ts). The price: on a hung network mount these calls stall the
// process, not only the one tool call.
import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectPath } from './projectPath';
import { errorCode, failed, refused, type FsFailure } from './fsResult';
import { projectPathParts, resolveInProject } from './projectPath';
import { errorText, log } from '../log/log';

export interface OpenedEntry {
  /** The open descriptor; the caller closes it (closeReader). */
  fd: number;
  /** fstat of the open descriptor. */
  stat: Stats;
  /** Absolute path of the entry under the real project directory. */
  absPath: string;
}

export type OpenResult = { ok: true; entry: OpenedEntry } | FsFailure;
export type CheckResult = { ok: true } | FsFailure;

// O_NOFOLLOW and O_NONBLOCK do not exist on Windows; there the lstat checks remain.
const { constants } = fs;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const READ_FILE_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
const READ_DIR_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_DIRECTORY;

const HAS_PROC_FD = process.platform === 'linux';

/**
 * Checks that every directory on the way to `p` (not `p` itself) is a real
 * directory inside the project: present, not a link, not a file.
 */
export function checkDirectoryChain(root: string, p: ProjectPath): CheckResult {
  const parts = projectPathParts(p);
  let current = root;
  for (let i = 0; i < parts.length - 1; i++) {
    current = path.join(current, parts[i]);
    const prefix = parts.slice(0, i + 1).join('/');
    let stat: Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      return describeMissing(prefix, p, error);
    }
    if (stat.isSymbolicLink()) {
      return refused(
        `${prefix} (on the way to ${p}) is a symbolic link; file tools pass only through real directories, ` +
          'even when a link points inside the project. Use the path of the real directory.',
      );
    }
    if (!stat.isDirectory()) return refused(`${prefix} is not a directory, so ${p} cannot exist.`);
  }
  return { ok: true };
}

/** The target's own lstat, once every directory above it is known to be real: what the open must then match. */
function lstatTarget(root: string, p: ProjectPath): { ok: true; absPath: string; before: Stats } | FsFailure {
  const chain = checkDirectoryChain(root, p);
  if (!chain.ok) return chain;
  const absPath = resolveInProject(root, p);
  try {
    return { ok: true, absPath, before: fs.lstatSync(absPath) };
  } catch (error) {
    return describeMissing(p, p, error);
  }
}

/** Opens an existing regular file for reading, with every check above. */
export function openConfinedFile(root: string, p: ProjectPath): OpenResult {
  if (projectPathParts(p).length === 0) return refused('"." is the project directory, not a file; use list_dir to see its entries.');
  const target = lstatTarget(root, p);
  if (!target.ok) return target;
  const kind = refuseUnlessRegularFile(p, target.before);
  if (kind) return kind;
  return openAndVerify(p, target.absPath, target.before, READ_FILE_FLAGS);
}

/** Opens an existing directory for reading its entries, with every check above. */
export function openConfinedDirectory(root: string, p: ProjectPath): OpenResult {
  const target = lstatTarget(root, p);
  if (!target.ok) return target;
  const { absPath, before } = target;
  if (before.isSymbolicLink()) return linkRefusal(p);
  if (!before.isDirectory()) {
    return refused(before.isFile() ? `${p} is a file, not a directory; use read_file to read it.` : `${p} is ${specialKind(before)}, not a directory.`);
  }
  return openAndVerify(p, absPath, before, READ_DIR_FLAGS);
}

/**
 * The refusal for a regular-file target that is anything else: a link, a
 * directory, a special file, or a file with more than one hard link (another
 * name for it could live outside the project). Null when it is acceptable.
 */
export function refuseUnlessRegularFile(p: ProjectPath, stat: Stats): FsFailure | null {
  if (stat.isSymbolicLink()) return linkRefusal(p);
  if (stat.isDirectory()) return refused(`${p} is a directory, not a file; use list_dir to see its entries.`);
  if (!stat.isFile()) return refused(`${p} is ${specialKind(stat)}, not a regular file; file tools handle regular files only.`);
  if (stat.nlink > 1) {
    return refused(
      `${p} has ${stat.nlink} hard links; file tools refuse files with more than one name, ` +
        'because another name for the same file may lie outside the project.',
    );
  }
  return null;
}

/**
 * Requires that an open descriptor is the entry that was checked (same device
 * and inode, still acceptable) and, where the kernel can say, that it sits at
 * exactly `absPath`. Exported so the swap detection can be exercised directly.
 */
export function verifyOpened(p: ProjectPath, absPath: string, fd: number, before: Stats): OpenResult {
  const stat = fs.fstatSync(fd);
  const located = descriptorPath(fd);
  if (stat.dev !== before.dev || stat.ino !== before.ino) {
    return failed(`${p} was replaced while it was being opened; nothing was read. Try the call again.`);
  }
  if (before.isDirectory() ? !stat.isDirectory() : refuseUnlessRegularFile(p, stat) !== null) {
    return failed(`${p} changed while it was being opened; nothing was read. Try the call again.`);
  }
  if (located !== null && located !== absPath) {
    return failed(`${p} was reached through a different route than the one checked (a directory on its path was replaced); nothing was read.`);
  }
  return { ok: true, entry: { fd, stat, absPath } };
}

/** Closes a read-only descriptor; a failed close of a reader loses nothing. */
export function closeReader(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch (error) {
    // Nothing was written through it.
    log.debug('read.close_failed', { error: errorText(error) });
  }
}

/** Where the kernel says an open descriptor lives (Linux), or null where it cannot say. */
export function descriptorPath(fd: number): string | null {
  if (!HAS_PROC_FD) return null;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // /proc may be absent in a restricted container; the inode check still holds.
    return null;
  }
}

function openAndVerify(p: ProjectPath, absPath: string, before: Stats, flags: number): OpenResult {
  let fd: number;
  try {
    fd = fs.openSync(absPath, flags);
  } catch (error) {
    const code = errorCode(error);
    // ELOOP (EMLINK on some BSDs) is how O_NOFOLLOW reports a link that appeared after the check.
    if (code === 'ELOOP' || code === 'EMLINK') return linkRefusal(p);
    if (code === 'ENOENT' || code === 'ENOTDIR') return failed(`${p} disappeared while it was being opened; nothing was read.`);
    return failed(`could not open ${p} (${code ?? String(error)}).`);
  }
  try {
    const verified = verifyOpened(p, absPath, fd, before);
    if (!verified.ok) closeReader(fd);
    return verified;
  } catch (error) {
    closeReader(fd);
    return failed(`could not check ${p} after opening it (${errorCode(error) ?? String(error)}).`);
  }
}

function describeMissing(prefix: string, p: ProjectPath, error: unknown): FsFailure {
  const code = errorCode(error);
  if (code === 'ENOENT') {
    const where = prefix === p ? `${p} does not exist` : `${prefix} does not exist, so ${p} cannot be reached`;
    return refused(`${where}. Use list_dir to see what the project holds.`, prefix);
  }
  if (code === 'ENOTDIR') return refused(`a part of ${p} is not a directory, so ${p} cannot exist.`);
  return failed(`could not check ${prefix} (${code ?? String(error)}).`);
}

function linkRefusal(p: ProjectPath): FsFailure {
  return refused(
    `${p} is a symbolic link; file tools do not follow links, even to places inside the project. ` +
      'Use the path of the file or directory it points to.',
  );
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'a special file';
}
