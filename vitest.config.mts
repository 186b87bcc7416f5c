import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Packages resolve as in the app as it ships, a production build: without the "development" condition. The
 * Markdown parser's packages (micromark, mdast-util-*, devlop) have a development export whose invariant checks
 * throw where the shipped code does not (mdast-util-gfm-task-list-item on "1.\n[ ] task"). Vitest adds the
 * condition to whatever a config lists (the lists are merged), so it is taken out of the resolved config, where
 * Vitest also reads the conditions it passes to the Node that runs the packages it does not transform.
 */
function asShipped(): Plugin {
  const shipped = (conditions: string[]) => conditions.filter((condition) => condition !== 'development|production' && condition !== 'development');
  return {
    name: 'mino-resolve-as-shipped',
    configResolved(config) {
      for (const resolve of [config.resolve, config.ssr.resolve, ...Object.values(config.environments).map((environment) => environment.resolve)]) {
        if (resolve?.conditions) (resolve as { conditions: string[] }).conditions = shipped(resolve.conditions);
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
