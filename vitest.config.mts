import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: keep workers few so process- and timing-sensitive tests stay honest.
    maxWorkers: 2,
    // The JSON report is what .ci/run counts.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
