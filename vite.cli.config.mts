// Builds the headless `mino` command into out/cli (Node, CommonJS): main.js is
// the command, mino.js a small launcher that runs it from V8's code cache
// (src/cli/launch.ts). Its dependencies are bundled in: resolving and reading
// node_modules file by file cost more start-up time than the code itself.
// Parts a plain run does not need (MCP, the tokenizer) are separate chunks,
// loaded by a dynamic import on first use.
import { readFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import { evalSuiteFiles } from './scripts/lib/evalSuitesPlugin';

const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * The search tools' worker thread (src/main/core/tools/search/searchWorker.ts)
 * as out/cli/searchWorker.js, where runSearchWorker.ts finds it beside
 * main.js. It is built on its own, into one file: as a third input it would
 * share a chunk with main.js, which every run would then load beside it,
 * outside the code cache that launch.ts keeps for main.js.
 */
function searchWorkerBuild(): Plugin {
  // The command's own output folder (`--outDir` may move it: test/support/builtCli.ts).
  let outDir = 'out/cli';
  return {
    name: 'mino-search-worker',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        ssr: { noExternal: true },
        build: {
          outDir,
          emptyOutDir: false,
          target: 'node20',
          ssr: true,
          minify: false,
          sourcemap: true,
          rolldownOptions: {
            input: { searchWorker: 'src/main/core/tools/search/searchWorker.ts' },
            output: { format: 'cjs', entryFileNames: '[name].js', charset: 'ascii' },
            external: NODE_BUILTINS,
          },
        },
      });
    },
  };
}

/**
 * The shell parser's two WebAssembly files (src/main/core/rules/commandParser.ts)
 * beside main.js, where the parser looks first: the bundled command then
 * needs nothing from node_modules at run time, wherever it is put.
 */
function shellParserFiles(): Plugin {
  const resolve = createRequire(import.meta.url).resolve;
  return {
    name: 'mino-shell-parser-files',
    apply: 'build',
    async generateBundle() {
      for (const [fileName, module] of [
        ['web-tree-sitter.wasm', 'web-tree-sitter/web-tree-sitter.wasm'],
        ['tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'],
      ]) {
        this.emitFile({ type: 'asset', fileName, source: await readFile(resolve(module)) });
      }
    },
  };
}

/** undici's HTTP/2 client (the CLI's fetch), asking for node:http2. */
const UNDICI_H2_CLIENT = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;
const isUndiciHttp2 = (source: string, importer: string | undefined) =>
  (source === 'node:http2' || source === 'http2') && importer !== undefined && UNDICI_H2_CLIENT.test(importer);

/**
 * undici's HTTP/2 client asks for node:http2 as it loads; it gets src/cli/http2OnDemand.ts instead, which loads
 * node:http2 (and with it node:tls and every CA certificate) only for an HTTP/2 connection, which Mino never
 * asks for. That file says why; an http:// service is then reached without loading TLS at all. (So that this
 * plugin is asked, that one request is not external: see `external` below.)
 */
function http2OnDemand(): Plugin {
  return {
    name: 'mino-http2-on-demand',
    enforce: 'pre',
    resolveId: (source, importer) => (isUndiciHttp2(source, importer) ? fileURLToPath(new URL('./src/cli/http2OnDemand.ts', import.meta.url)) : null),
  };
}

export default defineConfig({
  plugins: [http2OnDemand(), searchWorkerBuild(), shellParserFiles(), evalSuiteFiles()],
  ssr: { noExternal: true },
  build: {
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    ssr: true,
    // Minified, with the names of functions and classes kept (an SDK names itself in its User-Agent by its class):
    // less to read, hash and deserialize from the code cache at every start. The source maps beside it map
    // stack traces back to the source. ASCII only (charset, below: other characters are escaped), so V8 keeps
    // each file's text one byte per character: held two bytes per character, main.js cost about 2% more of a
    // one-turn run's instructions.
    minify: true,
    sourcemap: true,
    rolldownOptions: {
      input: { mino: 'src/cli/launch.ts', main: 'src/cli/mino.ts' },
      // dynamicImportInCjs: a dynamic import of a built-in module becomes a require(): the launcher compiles
      // the bundle as vm scripts, where import() would need an experimental loader (src/cli/codeCache.ts).
      output: { format: 'cjs', keepNames: true, dynamicImportInCjs: false, charset: 'ascii', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', banner: '#!/usr/bin/env node' },
      external: (source, importer) => !isUndiciHttp2(source, importer) && (NODE_BUILTINS.includes(source) || /^electron/.test(source)),
    },
  },
});
