// V8 code caches for the `mino` command's own files (out/cli/main.js and its
// chunks), kept so a run does not parse and compile that JavaScript again.
//
// Node's compile cache (module.enableCompileCache) holds only what V8
// compiles when a file is loaded: its top level. The functions a run then
// calls are compiled lazily, on every run. A cache made at the end of a run
// (V8's createCachedData after the code ran) holds those too, which takes
// about an eighth of a one-turn `mino exec`'s instructions (callgrind, `npm
// run bench:startup`'s scenario). So each file is compiled here, from the
// cache when there is one, and the caches this run lacked are written when it
// ends. Which functions run depends on the subcommand, so each keeps its own
// caches (`scope`).
//
// A cache is found by a hash of the file's text, Node's version and the
// architecture: V8 checks only the text's length, so a changed file of the
// same length must never meet an old cache. V8 still checks its own version
// and flags, and a cache it rejects is written anew. The folder must be this
// user's and writable by no one else (the caller checks): code read from it
// runs as this user. Anything that goes wrong only costs the time the cache
// would save.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** A CommonJS module's function, as Node wraps a file's text. */
export type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => unknown;

export interface CodeCacheStats {
  /** Files compiled from a cache. */
  hits: number;
  /** Files without a cache, or whose cache V8 rejected. */
  misses: number;
}

export interface CodeCache {
  /** `text`, the content of `filename`, as a module function: from the cache when it has one. */
  compile(filename: string, text: string): ModuleFunction;
  /** Writes the caches this run lacked (at exit: they then hold every function the run compiled). */
  save(): void;
  readonly stats: CodeCacheStats;
}

/** Caches not used by a run that writes new ones are removed once this old: they belong to an earlier build. */
export const STALE_CACHE_MS = 7 * 24 * 60 * 60 * 1000;

export function openCodeCache(dir: string, scope: string): CodeCache {
  const folder = path.join(dir, scope);
  const used = new Set<string>();
  const unsaved: Array<{ file: string; script: vm.Script }> = [];
  const stats: CodeCacheStats = { hits: 0, misses: 0 };
  return {
    stats,
    compile(filename, text) {
      const file = path.join(folder, cacheName(text));
      used.add(file);
      const cachedData = readCache(file);
      const script = new vm.Script(wrap(text), {
        filename,
        ...(cachedData ? { cachedData } : {}),
        // The bundle has no import() (vite.cli.config.mts turns them into require()); one added later still
        // loads, with Node's warning that this loader is experimental.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      if (cachedData && !script.cachedDataRejected) {
        stats.hits += 1;
      } else {
        stats.misses += 1;
        unsaved.push({ file, script });
      }
      return script.runInThisContext() as ModuleFunction;
    },
    save() {
      if (unsaved.length === 0) return;
      try {
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        for (const { file, script } of unsaved.splice(0)) writeAtomically(file, script.createCachedData());
        removeStale(folder, used);
      } catch {
        // ignore: without a cache the next run compiles again; nothing else depends on it
      }
    },
  };
}

function cacheName(text: string): string {
  return createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(text).digest('hex');
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    // ignore: no cache yet (or unreadable): the file is compiled from its text
    return undefined;
  }
}

/** Node's CommonJS wrapper; a leading `#!` line becomes a comment of the same length, so positions stay. */
function wrap(text: string): string {
  const body = text.startsWith('#!') ? `//${text.slice(2)}` : text;
  return `(function (exports, require, module, __filename, __dirname) { ${body}\n})`;
}

/** Another run may read the same file at any moment: it sees the old cache, the new one, or none, never half. */
function writeAtomically(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, data, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    // ignore: this file stays uncached until a later run writes it; the half-written temp file goes
    fs.rmSync(temp, { force: true });
  }
}

function removeStale(folder: string, used: ReadonlySet<string>): void {
  const now = Date.now();
  for (const name of fs.readdirSync(folder)) {
    const file = path.join(folder, name);
    if (used.has(file)) continue;
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_CACHE_MS) fs.rmSync(file, { force: true });
    } catch {
      // ignore: gone already (another run removed it)
    }
  }
}
