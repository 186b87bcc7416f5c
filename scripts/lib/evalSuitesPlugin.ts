// The built-in suites of `mino eval` (evals/<name>/...) emitted as evals/ beside
// the built entry (out/cli/evals for the command, out/main/evals for the app),
// where src/main/core/eval/suites.ts looks beside the running code: `mino eval
// --suite safety` and the desktop's Evaluate view then work wherever the build is put.
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Plugin } from 'vite';

export function evalSuiteFiles(): Plugin {
  return {
    name: 'mino-eval-suites',
    apply: 'build',
    async generateBundle() {
      for (const entry of await readdir('evals', { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        this.emitFile({ type: 'asset', fileName: file.split(path.sep).join('/'), source: await readFile(file) });
      }
    },
  };
}
