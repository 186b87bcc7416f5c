// Who holds a lock, and whether that holder still exists. A process id alone
// is not enough after a crash: the id may have been given to another process
// since, so where the system says when a process started (Linux), the start
// time recorded with the lock must match too.
import { errorCode } from '../../../shared/errors';
import { hasEnded, readProcStat } from '../fs/procStat';

export interface LockHolder {
  pid: number;
  /** The process's start time as the system counts it, or null where it cannot say. */
  startTime: string | null;
  /** Who the holder is, in words a person recognises: "desktop window", "CLI". */
  owner: string;
  /** When the lock was taken (ISO time). */
  since: string;
}

/** The start time of process `pid` (Linux: field 22 of /proc/<pid>/stat, in clock ticks since boot), or null. */
export function processStartTime(pid: number): string | null {
  const stat = readProcStat(pid);
  return stat === null ? null : String(stat.startTicks);
}

let ownStartTime: string | null | undefined;

/** This process as a lock holder. */
export function currentHolder(owner: string): LockHolder {
  if (ownStartTime === undefined) ownStartTime = processStartTime(process.pid);
  return { pid: process.pid, startTime: ownStartTime, owner, since: new Date().toISOString() };
}

/**
 * Whether `holder` may still be using its lock. Errs towards "alive": a lock
 * wrongly thought dead would let two writers in, a lock wrongly thought alive
 * only makes the second one wait or be refused.
 */
export function holderIsAlive(holder: LockHolder): boolean {
  if (holder.pid === process.pid) return holder.startTime === currentHolder(holder.owner).startTime;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    // ignore: EPERM means the process exists but belongs to someone else; it is checked further below, as any other doubt is, erring towards alive
  }
  const stat = readProcStat(holder.pid);
  if (stat === null) return true;
  // A zombie has ended; only its exit status waits to be collected.
  if (hasEnded(stat)) return false;
  return holder.startTime === null || String(stat.startTicks) === holder.startTime;
}

/** A holder as read back from a lock file, or null when the content is not one (a foreign or damaged file). */
export function parseHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return null;
  if (v.startTime !== null && typeof v.startTime !== 'string') return null;
  return {
    pid: v.pid,
    startTime: v.startTime,
    owner: typeof v.owner === 'string' ? v.owner : 'Mino',
    since: typeof v.since === 'string' ? v.since : '',
  };
}

/** "CLI, process 1234" */
export function describeHolder(holder: LockHolder): string {
  return `${holder.owner}, process ${holder.pid}`;
}
