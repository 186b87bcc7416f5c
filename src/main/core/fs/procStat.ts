// One process's line of /proc/<pid>/stat (Linux), read by the locks (is a
// holder still alive?) and by bash (which processes did a command start?).
import * as fs from 'node:fs';

export interface ProcStat {
  /** R, S, D, ... ; Z and X have ended and only wait to be reaped. */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** Field 22: start time in clock ticks since boot; with the pid, names one process. */
  startTicks: number;
}

/** The stat line of `pid`, or null when it cannot be read (gone, no /proc, not Linux). */
export function readProcStat(pid: number): ProcStat | null {
  // Other systems' /proc, where there is one, has another layout.
  if (process.platform !== 'linux') return null;
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) sits in parentheses and may itself hold spaces or parentheses: read after the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, ppid, pgid, sid, startTicks] = [fields[0], fields[1], fields[2], fields[3], fields[19]];
  if (!state || startTicks === undefined) return null;
  return { state, ppid: Number(ppid), pgid: Number(pgid), sid: Number(sid), startTicks: Number(startTicks) };
}

/** Exited, only waiting to be reaped. */
export function hasEnded(stat: ProcStat): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}
