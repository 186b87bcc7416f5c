// @ts-check
// `npm test`: builds, then runs the Playwright suite and, beside it, the vitest
// suite twice in a row: on this Node (or Node 22), then on Node 24 (Electron
// 45's main process); each whatever the others did, so one failure never hides
// another's results. On two cores the steps are bound by the processor
// (docs/testing.md, CI): beside each other or in a row, they take about the
// sum of their work. Playwright's output and the Node 24 run's are held in
// test-results/*.log and printed when each ends, so nothing interleaves with
// the first vitest run's. Vitest runs first on this Node when it is 22.12 or
// newer, otherwise on Node 22 from the npm registry (scripts/withNode.mjs).
// Exits non-zero if any step failed.
// Arguments are not taken: run a part with `npm run test:unit -- FILE` or
// `npm run test:e2e -- FILE`.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
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

/**
 * Runs a command with its output in `logFile` instead of the console; prints the log when it ends.
 * @param {string} command @param {string[]} args @param {string} logFile @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number>}
 */
async function runHeld(command, args, logFile, env) {
  await fs.mkdir(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const code = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('close', (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
  });
  await new Promise((resolve) => log.end(resolve));
  process.stdout.write(await fs.readFile(logFile, 'utf8'));
  return code;
}

// The report .ci/run counts, whichever Node vitest runs on.
process.env.MINO_VITEST_REPORT ??= 'test-results/vitest.json';
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supportedNode = major > 22 || (major === 22 && minor >= 12);

const NODE24_LOG = path.join(root, 'test-results', 'vitest-node24.log');
const PLAYWRIGHT_LOG = path.join(root, 'test-results', 'playwright.log');

/** A step's name and what it runs, resolving to its exit code. */
/** @typedef {[string, () => Promise<number>]} Step */

/** @type {Step} */
const firstVitest = [
  supportedNode ? `vitest (Node ${process.versions.node})` : 'vitest (Node 22)',
  () => (supportedNode ? run('npm', ['run', 'test:unit']) : runVitestOn('22', [])),
];
/** @type {Step} */
const node24Vitest = [
  `vitest on Node 24 (output held in ${path.relative(root, NODE24_LOG)})`,
  // Its own report, not the first run's (MINO_VITEST_REPORT is set above for that one).
  () => runHeld('npm', ['run', 'test:unit:node24'], NODE24_LOG, { ...process.env, MINO_VITEST_REPORT: 'test-results/vitest-node24.json' }),
];
/** @type {Step} */
const playwright = [`playwright (output held in ${path.relative(root, PLAYWRIGHT_LOG)})`, () => runHeld('npm', ['run', 'test:e2e'], PLAYWRIGHT_LOG, process.env)];

/**
 * Each stage's lanes run side by side, each lane's steps one after another; a stage starts when the one before
 * has ended.
 * @type {Array<Step[][]>}
 */
const stages = [[[['build', () => run('npm', ['run', 'build'])]]], [[playwright], [firstVitest, node24Vitest]]];

/** @type {string[]} */
const failed = [];
/** @param {Step} step */
async function runStep([name, step]) {
  const code = await step();
  if (code === 0) return;
  failed.push(name);
  console.log(`::: ${name} failed (exit ${code})`);
}
for (const lanes of stages) {
  console.log(`\n::: ${lanes.map((lane) => lane.map(([name]) => name).join(', then ')).join(', and alongside: ')}`);
  await Promise.all(
    lanes.map(async (lane) => {
      for (const step of lane) await runStep(step);
    }),
  );
  // Without a build there is nothing to test.
  if (failed.includes('build')) break;
}
if (failed.length > 0) console.log(`\nFailed: ${failed.join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
