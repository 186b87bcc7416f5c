// The per-file write lock, held from the recheck of a file to the rename that
// replaces it, so two approved writes to one file cannot both pass their
// recheck and have the second silently wipe the first (a lost update).
//
// It is keyed by what the file is, not by how it is named: the device and
// inode of an existing file, or for a create the directory's device and
// inode plus the new name. Every desktop window shares one main process, so
// waiters in the process queue in memory; other processes (a CLI, a second
// app) are excluded by a lock file under ~/.mino/locks, never in the project.
// Because a replace gives the file a new inode, the identity is read again
// once the lock is held, and the lock is taken anew if it moved.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { minoPaths } from '../config/minoHome';
import { failed, type FsFailure } from '../fs/fsResult';
import { errorCode } from '../../../shared/errors';
import { writeTargetIdentity } from '../fs/targetIdentity';
import type { ProjectPath } from '../fs/projectPath';
import { describeHolder, type LockHolder } from './holder';
import { tryLockFile } from './lockFile';

export interface HeldFileLock {
  ok: true;
  /** Releases the lock; safe to call more than once. */
  release(): void;
}

export type FileLockResult = HeldFileLock | FsFailure;

/** How long a writer waits for another to finish with the same file before giving up (the default of `waitMs`). */
export const FILE_LOCK_WAIT_MS = 10_000;

export interface FileLockOptions {
  /** How long to wait for another writer of the same file; default FILE_LOCK_WAIT_MS. Tests give a short one. */
  waitMs?: number;
}

const FIRST_POLL_MS = 2;
const MAX_POLL_MS = 50;
// A file replaced this many times while we wait is being rewritten in a loop; refuse rather than chase it.
const MAX_IDENTITY_MOVES = 8;

/** Writers of this process waiting for a key, in order: each waits for the one before it. */
const queues = new Map<string, Promise<void>>();

/** Takes the write lock of project file `p` (existing, or to be created). */
export async function lockFileForWrite(homeDir: string, root: string, p: ProjectPath, options: FileLockOptions = {}): Promise<FileLockResult> {
  const waitMs = options.waitMs ?? FILE_LOCK_WAIT_MS;
  const deadline = Date.now() + waitMs;
  for (let moves = 0; moves < MAX_IDENTITY_MOVES; moves++) {
    const identity = writeTargetIdentity(root, p);
    if (!identity.ok) return identity;
    const held = await lockKey(homeDir, identity.key, p, deadline, waitMs);
    if (!held.ok) return held;
    const now = writeTargetIdentity(root, p);
    if (now.ok && now.key === identity.key) return held;
    // Replaced (or created) while we waited: the lock guards the old identity; take the new one.
    held.release();
    if (!now.ok) return now;
  }
  return failed(`${p} kept being replaced while Mino waited to write it; nothing was written. Try again when it is quiet.`);
}

/** The lock file name for `key`: a digest, since keys hold paths of any length. */
export function lockFileFor(homeDir: string, key: string): string {
  return path.join(minoPaths(homeDir).locks, `file-${createHash('sha256').update(key).digest('hex').slice(0, 40)}.lock`);
}

async function lockKey(homeDir: string, key: string, p: ProjectPath, deadline: number, waitMs: number): Promise<FileLockResult> {
  // Join this process's queue for the key first, so in-process writers never poll each other.
  const before = queues.get(key) ?? Promise.resolve();
  let leaveQueue!: () => void;
  const turn = new Promise<void>((resolve) => (leaveQueue = resolve));
  const tail = before.then(() => turn);
  queues.set(key, tail);
  const leave = () => {
    leaveQueue();
    if (queues.get(key) === tail) queues.delete(key);
  };

  const waited = await waitUntil(before, deadline);
  if (!waited) {
    leave();
    return busy(p, null, waitMs);
  }
  const file = lockFileFor(homeDir, key);
  let pause = FIRST_POLL_MS;
  for (;;) {
    let attempt;
    try {
      attempt = tryLockFile(file, 'Mino');
    } catch (error) {
      leave();
      return failed(`could not take the write lock for ${p} in ${path.dirname(file)} (${errorCode(error) ?? String(error)}); nothing was written.`);
    }
    if (attempt.ok) {
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          try {
            attempt.release();
          } finally {
            leave();
          }
        },
      };
    }
    if (Date.now() + pause > deadline) {
      leave();
      return busy(p, attempt.holder, waitMs);
    }
    await sleep(pause);
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}

async function waitUntil(turn: Promise<void>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([turn.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function busy(p: ProjectPath, holder: LockHolder | null, waitMs: number): FsFailure {
  const who = holder ? `another Mino process (${describeHolder(holder)})` : 'another session of this window';
  return failed(`${p} is being written by ${who} and stayed locked for ${waitMs / 1000} s; nothing was written. Try again.`);
}
