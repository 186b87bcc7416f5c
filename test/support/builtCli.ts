// The `mino` command as it ships (vite.cli.config.mts), built into a temp
// folder with no node_modules above it, so a require() the bundle left out
// fails. Some cases can only be run on the built file: with the working
// directory deleted, Node cannot even start the tsx loader.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const REPO = path.resolve(__dirname, '../..');

export interface BuiltCli {
  dir: string;
  /** out/cli/mino.js of this build. */
  entry: string;
  remove(): Promise<void>;
}

/**
 * Builds into a new folder under `parent`: by default the system's temp folder, with no node_modules above it;
 * inside the repository, the build finds the dev dependencies a case may start (an MCP server), as out/cli does.
 */
export async function buildCli(parent = os.tmpdir()): Promise<BuiltCli> {
  await fs.mkdir(parent, { recursive: true });
  const dir = await fs.mkdtemp(path.join(parent, 'mino-cli-bundle-'));
  await promisify(execFile)(process.execPath, [path.join(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--outDir', dir, '--logLevel', 'error'], {
    cwd: REPO,
  });
  return { dir, entry: path.join(dir, 'mino.js'), remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Arguments for `spawn(process.execPath, cliArgs(...args))`: `mino ARGS`, from this vitest run's build (globalSetup.ts). */
export function cliArgs(...args: string[]): string[] {
  return [inject('minoCli'), ...args];
}
