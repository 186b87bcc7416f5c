// @ts-check
// Runs the vitest suite on a given Node: `node scripts/withNode.mjs <22|24> [vitest args]`.
// 22 is the oldest Node Mino supports (the LTS most people run), 24 the Node
// that Electron 45 runs its main process on; the rest of the tooling stays on
// the Node you started it with. Each binary comes from the npm registry's `node`
// package, installed once into .cache/node<major> (git-ignored) and never as a
// dependency of this package: there, its node_modules/.bin/node would replace
// the system node in every npm script.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The exact versions the suite is tested on, by major. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0' };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string} file */
function versionOf(file) {
  if (!existsSync(file)) return null;
  try {
    return execFileSync(file, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    // ignore: a binary that does not run is reinstalled below
    return null;
  }
}

/**
 * The node binary for `major`, installing it first when it is not there.
 * @param {'22' | '24'} major
 * @returns {{ node: string, binDir: string }}
 */
export function nodeBinary(major) {
  const version = NODE_VERSIONS[major];
  const prefix = path.join(root, '.cache', `node${major}`);
  const binDir = path.join(prefix, 'node_modules', 'node', 'bin');
  const node = path.join(binDir, process.platform === 'win32' ? 'node.exe' : 'node');
  if (versionOf(node) !== `v${version}`) {
    console.log(`Installing Node ${version} into ${path.relative(root, prefix)} (once)...`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `node@${version}`], { stdio: 'inherit' });
    const now = versionOf(node);
    if (now !== `v${version}`) throw new Error(`The node@${version} package did not give a working Node ${major} at ${node} (got ${now ?? 'nothing'}).`);
  }
  return { node, binDir };
}

/**
 * Runs `vitest run` on that Node, its report in MINO_VITEST_REPORT (default test-results/vitest-node<major>.json).
 * @param {'22' | '24'} major
 * @param {string[]} vitestArgs
 * @returns {Promise<number>}
 */
export function runVitestOn(major, vitestArgs) {
  const { node, binDir } = nodeBinary(major);
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const env = {
    ...process.env,
    MINO_VITEST_REPORT: process.env.MINO_VITEST_REPORT ?? `test-results/vitest-node${major}.json`,
    // First on PATH too, so child processes the tests start by name run on the same Node.
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  return new Promise((resolve) => {
    // On Node 24 the config leaves out the suites whose code never runs on Electron's Node (vitest.config.mts).
    const child = spawn(node, [vitest, 'run', ...vitestArgs], { cwd: root, stdio: 'inherit', env: major === '24' ? { ...env, MINO_VITEST_ELECTRON_NODE: '1' } : env });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [major, ...rest] = process.argv.slice(2);
  if (major !== '22' && major !== '24') {
    console.error(`usage: node scripts/withNode.mjs <${Object.keys(NODE_VERSIONS).join('|')}> [vitest arguments]`);
    process.exit(2);
  }
  process.exit(await runVitestOn(major, rest));
}
