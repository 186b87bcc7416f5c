// The `mino` command as it ships (vite.cli.config.mts), built into a temp
// folder with no node_modules above it, so a require() the bundle left out
// fails. Some cases can only be run on the built file: with the working
// directory deleted, Node cannot even start the tsx loader.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const REPO = path.resolve(__dirname, '../..');

export interface BuiltCli {
  dir: string;
  /** out/cli/mino.js of this build. */
  entry: string;
  remove(): Promise<void>;
}

export async function buildCli(): Promise<BuiltCli> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-cli-bundle-'));
  await promisify(execFile)(process.execPath, [path.join(REPO, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--outDir', dir, '--logLevel', 'error'], {
    cwd: REPO,
  });
  return { dir, entry: path.join(dir, 'mino.js'), remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
