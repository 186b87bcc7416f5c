// Runs a TypeScript entry point in a child Node process through tsx, from any
// working directory (a bare `--import tsx` resolves from the cwd).
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const TSX_LOADER = pathToFileURL(path.resolve(__dirname, '../../node_modules/tsx/dist/loader.mjs')).href;

/** Arguments for `spawn(process.execPath, tsxArgs(script, ...args))`. */
export function tsxArgs(script: string, ...args: string[]): string[] {
  return ['--import', TSX_LOADER, script, ...args];
}
