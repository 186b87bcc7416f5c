import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Packages resolve as in the app as it ships, a production build: with the "production" condition, not the
 * "development" one. The Markdown parser's packages (micromark, mdast-util-*, devlop) have a development export
 * whose invariant checks throw where the shipped code does not (mdast-util-gfm-task-list-item on "1.\n[ ] task").
 * Vitest adds "development|production" (development, in tests) to whatever a config lists, since Vite merges the
 * lists; so it is replaced in the resolved config, from which Vitest also takes the conditions it passes to the
 * Node that runs the packages it does not transform (there it passes "production" only in a production build, so
 * those packages get their default exports, as the shipped build's do).
 */
function asShipped(): Plugin {
  const shipped = (conditions: string[]) =>
    conditions.map((condition) => (condition === 'development|production' || condition === 'development' ? 'production' : condition));
  return {
    name: 'mino-resolve-as-shipped',
    configResolved(config) {
      for (const resolve of [config.resolve, config.ssr.resolve, ...Object.values(config.environments).map((environment) => environment.resolve)]) {
        if (resolve?.conditions) (resolve as { conditions: string[] }).conditions = [...new Set(shipped(resolve.conditions))];
      }
    },
  };
}

const TEST_FILES = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'];
/**
 * Suites left out of the run on Electron's Node (scripts/withNode.mjs 24 sets MINO_VITEST_ELECTRON_NODE): their code
 * never runs there. The renderer's modules run in Chromium; the lint rules and the launch scripts run on the
 * developer's own Node (22 or newer), as in the first run.
 */
const NOT_ON_ELECTRON_NODE = ['test/unit/renderer/**', 'test/unit/lint/**', 'test/unit/lint-boundaries.test.ts', 'test/integration/launch/**'];
const LEFT_OUT = process.env.MINO_VITEST_ELECTRON_NODE ? NOT_ON_ELECTRON_NODE : [];

/**
 * Test files that need modules fresh from disk: each runs in a process of its own. They check module state from
 * its start (the tokenizer not loaded yet, a watch's sentinel not made yet, a listener added as a module loads), or
 * load the built main process, which takes Electron from the module cache.
 */
const NEEDS_FRESH_MODULES = [
  'test/integration/context/lazyTokenizer.test.ts',
  'test/integration/electron/wiring.test.ts',
  'test/unit/checkpoints/changeWatch.test.ts',
  // Registers the module's window listener on a stand-in window as it imports the module.
  'test/unit/renderer/keyboardActivity.test.ts',
];

export default defineConfig({
  plugins: [asShipped()],
  test: {
    // Builds the `mino` command once for the tests that run it (test/support/globalSetup.ts).
    globalSetup: ['test/support/globalSetup.ts'],
    environment: 'node',
    // Generous on purpose: a timeout is not a speed assertion (benchmarks measure speed), and the
    // heaviest tests (11 MiB through an MCP server's stdio, killed CLI runs) took 23 s at a load of 12.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep workers few so process- and timing-sensitive tests stay honest.
    maxWorkers: 2,
    // The JSON report is what .ci/run counts; the Node 22 and Node 24 runs of scripts/withNode.mjs write their own unless told.
    reporters: ['default', ['json', { outputFile: process.env.MINO_VITEST_REPORT ?? 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        // Test files share their worker's modules, one file after another: a new process (and every module loaded
        // again) for each of the ~240 files took about half the suite's time. Checked with the files in random order.
        test: { name: 'shared', include: TEST_FILES, exclude: [...NEEDS_FRESH_MODULES, ...LEFT_OUT], isolate: false },
      },
      { extends: true, test: { name: 'fresh', include: NEEDS_FRESH_MODULES, exclude: LEFT_OUT } },
    ],
  },
});
