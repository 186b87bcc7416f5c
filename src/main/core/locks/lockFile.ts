// An exclusive lock between processes: a file under ~/.mino/locks that names
// its holder. Taking it is one hard link of a fully written file onto the
// lock name, which the kernel refuses when the name exists, so the lock file
// is never seen half written. A lock whose holder has died is removed and
// taken again; one whose holder lives is reported with that holder.
//
// A holder killed while it holds a lock leaves the lock file, and one killed
// while taking it leaves the temp file it links from. A lock file is keyed by
// what the file is (fileLock.ts), and a replaced file has a new key, so the
// same lock may never be asked for again: removeStaleLocks clears both kinds
// of leftover from the whole directory, each time a session is locked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDirSync, isOrphanedTemp, isPrivateTempName, PRIVATE_FILE_MODE, privateTempPath } from '../config/minoHome';
import { currentHolder, holderIsAlive, parseHolder, type LockHolder } from './holder';
import { errorCode } from '../../../shared/errors';
import { errorText, log } from '../log/log';
import { lstatOrNull } from '../fs/lstatOrNull';

export type LockAttempt = { ok: true; release: () => void } | { ok: false; holder: LockHolder };

const { constants } = fs;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A dead holder is cleared at most this many times per attempt, so two
// processes clearing each other's fresh locks cannot spin forever.
const MAX_CLEARS = 3;

/** Tries once to take the lock `file` for this process; never waits. */
export function tryLockFile(file: string, owner: string): LockAttempt {
  const dir = path.dirname(file);
  ensurePrivateDirSync(dir);
  const mine = currentHolder(owner);
  for (let clears = 0; ; clears++) {
    const placed = placeLockFile(file, mine);
    if (placed !== null) {
      return {
        ok: true,
        release: () => {
          removeIfSame(file, placed);
        },
      };
    }
    const existing = readLock(file);
    // Gone between the link and the read: the holder released it, try again.
    if (existing === null) continue;
    if (existing.holder !== null && holderIsAlive(existing.holder)) return { ok: false, holder: existing.holder };
    if (clears >= MAX_CLEARS) return { ok: false, holder: existing.holder ?? { pid: 0, startTime: null, owner: 'an unknown holder', since: '' } };
    // The holder died (or the file is not a lock Mino wrote): clear it, but
    // only if it is still the file judged dead, not a lock taken meanwhile.
    removeIfSame(file, existing.ino);
  }
}

/** Writes the holder to a private temp file and links it onto `file`; the lock's inode, or null if the name is taken. */
function placeLockFile(file: string, holder: LockHolder): number | null {
  // Named for this process, so a sweep can tell one left by a killed taker from one being linked now.
  const temp = privateTempPath(file);
  const fd = fs.openSync(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW, PRIVATE_FILE_MODE);
  try {
    fs.writeSync(fd, JSON.stringify(holder));
    const ino = fs.fstatSync(fd).ino;
    try {
      fs.linkSync(temp, file);
      return ino;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return null;
      throw error;
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Removes from lock directory `dir` every lock whose holder is gone (or that
 * no Mino wrote whole) and every temp file a killed taker left; returns the
 * names removed. A lock whose holder lives is never touched.
 */
export function removeStaleLocks(dir: string, now: number = Date.now()): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    // ignore: no lock directory yet means no lock was ever left in it
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (isPrivateTempName(name)) {
        const stat = lstatOrNull(file);
        if (stat?.isFile() && isOrphanedTemp(name, { mtimeMs: stat.mtimeMs, now }) && removeIfPresent(file)) removed.push(name);
        continue;
      }
      if (!name.endsWith('.lock')) continue;
      const existing = readLock(file);
      if (existing === null || (existing.holder !== null && holderIsAlive(existing.holder))) continue;
      // As in tryLockFile: only if it is still the file judged dead, not a lock taken meanwhile.
      if (removeIfSame(file, existing.ino)) removed.push(name);
    } catch (error) {
      // One entry that cannot be read or removed must not stop a session from opening; the next sweep tries again.
      log.warn('locks.sweep_failed', { file, error: errorText(error) });
    }
  }
  return removed;
}

function removeIfPresent(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (error) {
    // ignore: another sweep removed it first, which is what this one was for
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

function readLock(file: string): { ino: number; holder: LockHolder | null } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, constants.O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const ino = fs.fstatSync(fd).ino;
    const buffer = Buffer.alloc(4096);
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return { ino, holder: parseHolder(buffer.subarray(0, length).toString('utf8')) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes `file` if it is still the inode `ino`. Between the check and the
 * unlink another process could clear and retake the lock; that needs two
 * processes clearing the same dead holder within microseconds, and at worst
 * lets one more waiter in, whose recheck still refuses a changed file.
 */
function removeIfSame(file: string, ino: number): boolean {
  try {
    if (fs.lstatSync(file).ino !== ino) return false;
    fs.unlinkSync(file);
    return true;
  } catch (error) {
    // ignore: a file already gone is what removing it was for
    if (errorCode(error) !== 'ENOENT') throw error;
    return false;
  }
}
