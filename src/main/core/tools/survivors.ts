// A bash command that was running when Mino died: found again on resume by
// the mark its processes carry (see processGroup.ts), and ended, so it cannot
// go on changing the project after the person has looked and acknowledged.
// A command in a bwrap namespace (the sandbox's, or the process namespace an
// unsandboxed command gets where a trusted bwrap works, see
// sandbox/outside.ts) died with Mino already; this covers the rest: macOS,
// and machines without a trusted, working bwrap.
import type { SurvivorState } from '../../../shared/resumeNotices';
import { HAS_PROC, markedProcesses } from './processTree';

const GRACE_MS = 500;
const POLL_MS = 25;

/** Ends every process still carrying `mark`; says whether there were any, or that this system cannot tell. */
export async function endSurvivors(mark: string): Promise<{ state: SurvivorState; ended: number }> {
  if (!HAS_PROC) return { state: 'cannot_tell', ended: 0 };
  const found = markedProcesses(mark);
  if (found.length === 0) return { state: 'not_running', ended: 0 };
  for (const pid of found) signal(pid, 'SIGTERM');
  const deadline = Date.now() + GRACE_MS;
  while (Date.now() < deadline && markedProcesses(mark).length > 0) await new Promise((r) => setTimeout(r, POLL_MS));
  for (const pid of markedProcesses(mark)) signal(pid, 'SIGKILL');
  return { state: 'ended', ended: found.length };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ignore: the process is gone already, which is what the signal was for
  }
}
