// @ts-check
// Runs the vitest suite on Node 24, the Node that Electron 45 runs its main
// process on, while the rest of the tooling stays on this machine's Node. The
// Node 24 binary comes from the npm registry's `node` package, installed once
// into .cache/node24 (git-ignored) and never as a dependency of this package:
// there, its node_modules/.bin/node would replace the system node in every
// npm script. Arguments are passed to `vitest run`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE24_VERSION = '24.21.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.cache', 'node24');
const binDir = path.join(prefix, 'node_modules', 'node', 'bin');
const node = path.join(binDir, 'node');

function installedVersion() {
  if (!existsSync(node)) return null;
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

if (installedVersion() !== `v${NODE24_VERSION}`) {
  console.log(`Installing Node ${NODE24_VERSION} into ${path.relative(root, prefix)} (once)...`);
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${NODE24_VERSION}`], { stdio: 'inherit' });
  const now = installedVersion();
  if (now !== `v${NODE24_VERSION}`) {
    console.error(`The node@${NODE24_VERSION} package did not give a working Node 24 at ${node} (got ${now ?? 'nothing'}).`);
    process.exit(1);
  }
}

const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = [vitest, 'run', ...process.argv.slice(2)];
// First on PATH too, so child processes the tests start by name run on Node 24 as well.
const child = spawn(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, MINO_VITEST_REPORT: 'test-results/vitest-node24.json', PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}` } });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
