// The shell parser behind commandParts.ts, loaded once per process.
//
// Which parser, and why: tree-sitter's bash grammar (`tree-sitter-bash`, run by
// `web-tree-sitter`). Both are maintained by the tree-sitter organisation, have
// no native parts (two WebAssembly files, 1.5 MB together), load in about a
// tenth of a second once, and then read a typical command (parse and walk) in
// about 1.5 ms, synchronously.
// Codex reads bash commands with the same grammar. The alternatives were worse
// for this use: `sh-syntax` (mvdan/sh in WebAssembly) returns a JSON tree that
// drops every command node's contents, so nothing can be judged from it;
// `mvdan-sh` is its deprecated pure-JS predecessor; `bash-parser` and its fork
// have had no real maintenance for years and miss much of bash's grammar.
// tree-sitter recovers from errors instead of failing, so commandParts.ts
// treats any ERROR or MISSING node as "cannot read" and only walks node kinds
// it knows; everything else makes the call ask.
//
// The WebAssembly files are read beside the running code first (the bundled
// CLI carries them: vite.cli.config.mts), else from the installed packages
// (resolved from this file), and handed to the runtime as bytes so that no
// bundler rewrite of the packages' own file lookup can break it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { loadOnce } from '../../../shared/loadOnce';

/** The bash parser, ready to use; loaded on first call and shared after. */
export const bashParser: () => Promise<Parser> = loadOnce(loadBashParser);

async function loadBashParser(): Promise<Parser> {
  const [runtime, grammar] = await Promise.all([wasmFile('web-tree-sitter', 'web-tree-sitter.wasm'), wasmFile('tree-sitter-bash', 'tree-sitter-bash.wasm')]);
  await Parser.init({ wasmBinary: runtime });
  const bash = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}

/** `name` beside this code (or its chunk's folder's parent), else from package `pkg`. */
async function wasmFile(pkg: string, name: string): Promise<Buffer> {
  for (const dir of [__dirname, path.dirname(__dirname)]) {
    try {
      return await readFile(path.join(dir, name));
    } catch {
      // ignore: not carried here; the installed package is the last place to look
    }
  }
  return readFile(createRequire(__filename).resolve(`${pkg}/${name}`));
}
