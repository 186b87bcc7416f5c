// Once per vitest run: the `mino` command built as it ships (builtCli.ts), so
// the tests that run it as a child process run the bundle rather than the
// TypeScript source through tsx, which spent about 0.6 s of CPU loading the
// source at each of some hundred runs. It is built inside the repository
// (.cache/, ignored by git), so it finds the dev dependencies, as out/cli does.
import * as path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli, type BuiltCli } from './builtCli';

declare module 'vitest' {
  export interface ProvidedContext {
    /** out/cli/mino.js of the run's build of the `mino` command. */
    minoCli: string;
  }
}

let built: BuiltCli | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Vitest runs global setup for the root project and again for each project of vitest.config.mts, which take
  // what the root provides: one build serves them all.
  if (!project.isRootProject()) return;
  built = await buildCli(path.resolve(__dirname, '../../.cache'));
  project.provide('minoCli', built.entry);
}

export async function teardown(): Promise<void> {
  await built?.remove();
}
