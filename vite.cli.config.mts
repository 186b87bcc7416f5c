// Builds the headless `mino` command into out/cli/mino.js (Node, CommonJS).
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    ssr: true,
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { mino: 'src/cli/mino.ts' },
      output: { format: 'cjs', entryFileNames: '[name].js', banner: '#!/usr/bin/env node' },
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), /^electron/],
    },
  },
});
