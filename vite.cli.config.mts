// Builds the headless `mino` command into out/cli (Node, CommonJS): main.js is
// the command, mino.js a small launcher that runs it from V8's code cache
// (src/cli/launch.ts). Its dependencies are bundled in: resolving and reading
// node_modules file by file cost more start-up time than the code itself.
// Parts a plain run does not need (MCP, the tokenizer) are separate chunks,
// loaded by a dynamic import on first use.
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

export default defineConfig({
  ssr: { noExternal: true },
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    ssr: true,
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: { mino: 'src/cli/launch.ts', main: 'src/cli/mino.ts' },
      output: { format: 'cjs', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', banner: '#!/usr/bin/env node' },
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), /^electron/],
    },
  },
});
