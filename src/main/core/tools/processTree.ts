// What a command started, found through /proc where the system has it
// (Linux). Node cannot make Mino a subreaper, so a process that left the
// command's group (`set -m`) or its session (`setsid`) would outlive the call:
// members of the command's session are found at the end, and descendants are
// gathered while it runs, each with its start time so a reused pid is never
// mistaken for one of them.
import * as fs from 'node:fs';
import { hasEnded, readProcStat } from '../fs/procStat';

/** One process as /proc shows it; `startTicks` tells a process from a later one given the same pid. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  startTicks: number;
}

export const HAS_PROC = fs.existsSync('/proc/self/stat');

/** The process, or null when it is gone (or /proc cannot say). */
export function processInfo(pid: number): ProcessInfo | null {
  const stat = readProcStat(pid);
  if (stat === null || hasEnded(stat)) return null;
  return { pid, ppid: stat.ppid, pgid: stat.pgid, sid: stat.sid, startTicks: stat.startTicks };
}

/** Every live process whose session is `sid`. */
export function sessionMembers(sid: number): ProcessInfo[] {
  if (!HAS_PROC) return [];
  const members: ProcessInfo[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = processInfo(Number(name));
    if (info && info.sid === sid) members.push(info);
  }
  return members;
}

/** The direct children of `pid`, through each of its threads. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of safeReaddir(`/proc/${pid}/task`)) {
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ')) {
        if (child !== '') children.push(Number(child));
      }
    } catch {
      // ignore: the thread or the process ended meanwhile, so it has no children to find
    }
  }
  return children;
}

/** Descendants seen so far, kept by pid with their start time, so they can be ended after their parents are gone. */
export class DescendantWatch {
  private readonly seen = new Map<number, number>();

  constructor(private readonly root: number) {}

  /** Looks once more: every process below the root or below one seen before, while it lives. */
  look(): void {
    if (!HAS_PROC) return;
    const queue = [this.root, ...this.seen.keys()];
    const visited = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.pop()!;
      if (visited.has(pid)) continue;
      visited.add(pid);
      for (const child of childrenOf(pid)) {
        const info = processInfo(child);
        if (info === null) continue;
        if (!this.seen.has(child)) this.seen.set(child, info.startTicks);
        queue.push(child);
      }
    }
  }

  /** The ones still alive and still the same process (same start time). */
  alive(): number[] {
    return [...this.seen].filter(([pid, ticks]) => processInfo(pid)?.startTicks === ticks).map(([pid]) => pid);
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The variable every process of one command inherits; its value names the command, so its processes can be found later. */
export const COMMAND_MARK_VARIABLE = 'MINO_COMMAND_ID';

/** Every live process (other than this one) whose environment carries `mark`: what one command started, however it left its group. */
export function markedProcesses(mark: string): number[] {
  if (!HAS_PROC) return [];
  const needle = Buffer.from(`${COMMAND_MARK_VARIABLE}=${mark}\0`);
  const found: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${name}/environ`);
      if (environ.includes(needle) && processInfo(Number(name)) !== null) found.push(Number(name));
    } catch {
      // ignore: gone, or not ours to read: then not ours to end either
    }
  }
  return found;
}
