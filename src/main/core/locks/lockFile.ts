// An exclusive lock between processes: a file under ~/.mino/locks that names
// its holder. Taking it is one hard link of a fully written file onto the
// lock name, which the kernel refuses when the name exists, so the lock file
// is never seen half written. A lock whose holder has died is removed and
// taken again; one whose holder lives is reported with that holder.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDirSync, PRIVATE_FILE_MODE } from '../config/minoHome';
import { currentHolder, holderIsAlive, parseHolder, type LockHolder } from './holder';
import { errorCode } from '../../../shared/errors';

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
    if (placed !== null) return { ok: true, release: () => removeIfSame(file, placed) };
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
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
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
function removeIfSame(file: string, ino: number): void {
  try {
    if (fs.lstatSync(file).ino === ino) fs.unlinkSync(file);
  } catch (error) {
    // ignore: a file already gone is what removing it was for
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
