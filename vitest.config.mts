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

export default defineConfig({
  plugins: [asShipped()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
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
  },
});
