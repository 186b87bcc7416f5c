import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { evalSuiteFiles } from './scripts/lib/evalSuitesPlugin';

// Entry points follow electron-vite's defaults: src/main/index.ts,
// src/preload/index.ts and src/renderer/index.html, built into out/; main
// also builds the search tools' worker thread beside its index.js, and carries
// the built-in eval suites as out/main/evals/ (the Evaluate view runs them).
export default defineConfig({
  main: {
    plugins: [evalSuiteFiles()],
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        // searchWorker.js: the search tools' worker thread, found beside index.js at run time
        // (src/main/core/tools/search/runSearchWorker.ts).
        input: { index: resolve(__dirname, 'src/main/index.ts'), searchWorker: resolve(__dirname, 'src/main/core/tools/search/searchWorker.ts') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require packages: bundle everything into one CommonJS file.
      externalizeDeps: false,
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
    },
  },
});
