// `mino` run as a person or script runs it: a child process in the fixture's
// project, with its environment (temp home, mock model service), its output
// collected. From the TypeScript source through tsx, or a built entry file.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { AgentFixture } from './agentFixture';
import { tsxArgs } from './tsxChild';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** src/cli/mino.ts, run through tsx. */
export const CLI_SOURCE = path.resolve(__dirname, '../../src/cli/mino.ts');

/** Runs `mino ARGS` from source, or from `builtEntry` (a bundle's mino.js) when given. */
export function runCli(fx: Pick<AgentFixture, 'project' | 'env'>, args: readonly string[], builtEntry?: string): Promise<CliRun> {
  const argv = builtEntry ? [builtEntry, ...args] : tsxArgs(CLI_SOURCE, ...args);
  const child = spawn(process.execPath, argv, { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
