// @ts-check
// `npm test`: builds, then runs the vitest suite and the Playwright suite, each
// whatever the other did, so one failure never hides the other's results.
// Vitest runs on this Node when it is 22.12 or newer, otherwise on Node 22 from
// the npm registry (scripts/withNode.mjs). Exits non-zero if any step failed.
// Arguments are not taken: run a part with `npm run test:unit -- FILE` or
// `npm run test:e2e -- FILE`.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runVitestOn } from './withNode.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @param {string} command @param {string[]} args @returns {Promise<number>} */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// The report .ci/run counts, whichever Node vitest runs on.
process.env.MINO_VITEST_REPORT ??= 'test-results/vitest.json';
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supportedNode = major > 22 || (major === 22 && minor >= 12);

/** @type {Array<[string, () => Promise<number>]>} */
const steps = [
  ['build', () => run('npm', ['run', 'build'])],
  [
    supportedNode ? `vitest (Node ${process.versions.node})` : 'vitest (Node 22)',
    () => (supportedNode ? run('npm', ['run', 'test:unit']) : runVitestOn('22', [])),
  ],
  ['playwright', () => run('npm', ['run', 'test:e2e'])],
];

const failed = [];
for (const [name, step] of steps) {
  console.log(`\n::: ${name}`);
  const code = await step();
  if (code !== 0) {
    failed.push(name);
    console.log(`::: ${name} failed (exit ${code})`);
    // Without a build there is nothing to test.
    if (name === 'build') break;
  }
}
if (failed.length > 0) console.log(`\nFailed: ${failed.join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
