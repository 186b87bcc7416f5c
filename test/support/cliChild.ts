// `mino` run as a person or script runs it: a child process in the fixture's
// project, with its environment (temp home, mock model service), its output
// collected. From this vitest run's build of it, or another built entry file.
import { spawn } from 'node:child_process';
import type { AgentFixture } from './agentFixture';
import { cliArgs } from './builtCli';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mino ARGS` as built for this test run, or from `builtEntry` (another build's mino.js) when given. */
export function runCli(fx: Pick<AgentFixture, 'project' | 'env'>, args: readonly string[], builtEntry?: string): Promise<CliRun> {
  const argv = builtEntry ? [builtEntry, ...args] : cliArgs(...args);
  const child = spawn(process.execPath, argv, { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
