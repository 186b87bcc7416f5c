// What the person is told about a call a session was interrupted in, once
// the session is open again: the desktop and the CLI say the same.
// Kept apart from the window's contract (sessions.ts), whose schemas the CLI
// would otherwise build at every start without using them.

export type SurvivorState = 'ended' | 'not_running' | 'cannot_tell';

/** Whether an interrupted command was still running when its session was resumed. */
export function survivorsText(survivors: { state: SurvivorState; ended: number }): string {
  switch (survivors.state) {
    case 'ended':
      return `This command was still running when the session was resumed; Mino ended its ${survivors.ended} remaining ${survivors.ended === 1 ? 'process' : 'processes'}.`;
    case 'not_running':
      return 'This command was no longer running when the session was resumed.';
    case 'cannot_tell':
      return 'Mino cannot tell on this system whether this command is still running; check for its processes before you go on.';
  }
}

/** What the person is told was cleaned up after a write Mino was killed in. */
export function removedTempFilesText(files: readonly string[]): string {
  return `Removed the unfinished temporary ${files.length === 1 ? 'file' : 'files'} this call had left in the project: ${files.join(', ')}.`;
}
