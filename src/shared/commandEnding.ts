// The last line of a bash result says how the command ended. The bash tool
// writes it with these functions and a window reads it back with
// `commandEnding`, so the card can show it at its top, live and after resume.

export function exitCodeLine(code: number): string {
  return `Exit code: ${code}`;
}

export function timedOutLine(timeoutText: string): string {
  return `Timed out after ${timeoutText}; the command's process group was killed.`;
}

export const STOPPED_LINE = "Stopped by the user before it finished; the command's process group was killed.";

export function killedLine(signal: string): string {
  return `Killed by signal ${signal}`;
}

export interface CommandEnding {
  /** "Exit code 0", "Timed out", "Stopped", "Killed by SIGKILL". */
  text: string;
  ok: boolean;
}

/**
 * How the command of a bash result ended, from the last such line Mino wrote
 * (a command can print a look-alike line, but Mino's comes after it); null
 * when the output has none (the command never ran).
 */
export function commandEnding(output: string): CommandEnding | null {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] ?? '';
    const exit = /^Exit code: (-?\d+)$/.exec(line);
    if (exit) return { text: `Exit code ${exit[1]}`, ok: exit[1] === '0' };
    if (/^Timed out after .*; the command's process group was killed\.$/.test(line)) return { text: 'Timed out', ok: false };
    if (line === STOPPED_LINE) return { text: 'Stopped', ok: false };
    const killed = /^Killed by signal (\S+)$/.exec(line);
    if (killed) return { text: `Killed by ${killed[1]}`, ok: false };
  }
  return null;
}
