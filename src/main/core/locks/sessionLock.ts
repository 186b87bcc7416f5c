// One writer per session: whoever opens a session to add to it holds its
// lock until it closes, so two processes (the desktop and a CLI, two CLIs)
// can never interleave records in one log, which would leave it unloadable.
// Reading a session (listing, loading, showing it) takes no lock.
//
// Every session start and resume takes this lock first, so it is also where
// what killed Mino processes left in ~/.mino/locks is removed
// (removeStaleLocks, lockFile.ts).
import * as path from 'node:path';
import { minoPaths } from '../config/minoHome';
import { isSessionId } from '../sessions/ids';
import { describeHolder, type LockHolder } from './holder';
import { removeStaleLocks, tryLockFile } from './lockFile';

export interface SessionLock {
  /** Safe to call more than once. */
  release(): void;
}

export class SessionLockedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly holder: LockHolder,
  ) {
    super(
      `Session ${sessionId} is open for writing elsewhere (${describeHolder(holder)}${holder.since ? `, since ${holder.since}` : ''}), ` +
        'so it cannot be continued here: two writers would corrupt its log. Close it there (or wait for that run to end), then try again. ' +
        'It can still be listed and read.',
    );
    this.name = 'SessionLockedError';
  }
}

/** Takes session `id`'s lock for this process, or throws SessionLockedError naming who has it. */
export function lockSession(homeDir: string, id: string, owner: string): SessionLock {
  if (!isSessionId(id)) throw new Error(`"${id}" is not a session id (32 lowercase hex characters).`);
  const locks = minoPaths(homeDir).locks;
  removeStaleLocks(locks);
  const attempt = tryLockFile(path.join(locks, `session-${id}.lock`), owner);
  if (!attempt.ok) throw new SessionLockedError(id, attempt.holder);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      attempt.release();
    },
  };
}
