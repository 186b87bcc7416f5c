// A finished command as the model reads it: its output (cut at the cap, saying
// so), then how it ended (exit code, signal, timeout, stop), in the words
// every front end also uses (shared/commandEnding.ts).
import type { ToolResult } from '../../../shared/domain';
import { exitCodeLine, killedLine, STOPPED_LINE, timedOutLine } from '../../../shared/commandEnding';
import type { GroupRunOutcome } from './processGroup';

/** The result of a command that ran (or could not start); `timeoutText`, `capText`: its limits, in words. */
export function resultFor(outcome: GroupRunOutcome, timeoutText: string, capText: string): ToolResult {
  if (outcome.startError) {
    return {
      status: 'failed',
      output: `The command could not be started: ${outcome.startError.message}. Check that bash is installed and the project directory exists.`,
    };
  }
  const lines = [outcome.output === '' ? '(no output)' : outcome.output.replace(/\n$/, '')];
  if (outcome.cutBytes > 0) {
    lines.push(`[Output cut: ${outcome.cutBytes} more bytes were not returned; only the first ${capText} is kept. Narrow the command's output, e.g. with head, tail or grep.]`);
  }
  switch (outcome.ending) {
    case 'timed_out':
      lines.push(timedOutLine(timeoutText));
      return { status: 'failed', output: lines.join('\n') };
    case 'aborted':
      lines.push(STOPPED_LINE);
      return { status: 'failed', output: lines.join('\n') };
    case 'exited':
      if (outcome.exitCode !== null) {
        lines.push(exitCodeLine(outcome.exitCode));
        return { status: outcome.exitCode === 0 ? 'completed' : 'failed', output: lines.join('\n') };
      }
      lines.push(killedLine(outcome.exitSignal ?? 'unknown'));
      return { status: 'failed', output: lines.join('\n') };
  }
}

/** Milliseconds as seconds with one decimal: "2.5". */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** A byte count in KiB when whole, else in bytes. */
export function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
