// Where the search tools' worker thread gets its code: a file of the build,
// or, run from TypeScript source, its code bundled on the spot.
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { loadOnce } from '../../../../shared/loadOnce';

/** The worker's code: a built file, or (from TypeScript source) the bundled code itself. */
export type WorkerScript = { file: string } | { code: string };

/**
 * A build (the app's out/main, the CLI's out/cli) emits the worker as
 * searchWorker.js beside its entry file; the module asking may itself sit in
 * a chunk one folder below. Looked up once per process.
 */
export const workerScript: () => Promise<WorkerScript> = loadOnce(findWorkerScript);

async function findWorkerScript(): Promise<WorkerScript> {
  if (__filename.endsWith('.ts')) return { code: await bundleFromSource() };
  const candidates = [path.join(__dirname, 'searchWorker.js'), path.join(__dirname, '..', 'searchWorker.js')];
  for (const file of candidates) {
    try {
      await fs.access(file);
      return { file };
    } catch {
      // ignore: not here; the next place is tried, and the error below names them all
    }
  }
  throw new Error(`the search worker is missing from the build (looked for ${candidates.join(' and ')})`);
}

/**
 * Run from TypeScript source (vitest, benches through tsx), there is no built
 * worker: the worker's code is bundled here, once per process, with esbuild
 * (a development dependency), and the worker runs that code. A worker cannot
 * load TypeScript itself on every Node this runs on (Node 20 ignores a loader
 * given to a worker), and loading it through tsx took over half a second per
 * worker. esbuild is required through createRequire so that no bundler of the
 * app or the CLI takes it in.
 */
async function bundleFromSource(): Promise<string> {
  const esbuild = createRequire(__filename)('esbuild') as typeof import('esbuild');
  const built = await esbuild.build({
    entryPoints: [path.join(__dirname, 'searchWorker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return built.outputFiles[0].text;
}
