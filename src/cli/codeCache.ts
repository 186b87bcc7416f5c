// V8 code caches for the `mino` command's own files (out/cli/main.js and its
// chunks), kept so a run does not parse and compile that JavaScript again.
//
// Node's compile cache (module.enableCompileCache) holds only what V8
// compiles when a file is loaded: its top level. The functions a run then
// calls are compiled lazily, on every run. A cache made at the end of a run
// (V8's createCachedData after the code ran) holds those too, which takes
// another 7% of a one-turn `mino exec`'s instructions (callgrind, `npm run
// bench:startup`'s scenario). So each file is compiled here, from the
// cache when there is one, and the caches this run lacked are written when it
// ends. Which functions run depends on the subcommand, so each keeps its own
// caches (`scope`); and a run that failed (often the very first, before a
// service is set up) compiled less than one that did its work, so its caches
// are kept only until a run that succeeds replaces them.
//
// A cache is found by a hash of the file's bytes, Node's version and the
// architecture: V8 checks only the text's length, so a changed file of the
// same length must never meet an old cache. The bytes are hashed as read, and
// a file of ASCII only (as the build writes the bundle) is decoded as Latin-1:
// the same text, in a third of the time UTF-8 decoding takes. V8 still checks
// its own version and flags, and a cache it rejects is written anew. The
// folder must be this user's and writable by no one else (the caller checks):
// code read from it runs as this user. Anything that goes wrong only costs the
// time the cache would save.
import { isAscii } from 'node:buffer';
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

/** How the run that wrote a cache ended: caches of failed runs give way to those of successful ones. */
type RunOutcome = 'succeeded' | 'failed';
const OUTCOMES: readonly RunOutcome[] = ['succeeded', 'failed'];

export interface CodeCache {
  /** `source`, the content of `filename` (UTF-8), as a module function: from the cache when it has one. */
  compile(filename: string, source: Buffer): ModuleFunction;
  /**
   * Writes the caches this run lacked (at exit: they then hold every function the run compiled). A run that
   * `succeeded` also replaces the caches a failed run wrote. Old leftovers of an earlier Mino go (SCOPE_NAME).
   */
  save(outcome: RunOutcome): void;
  readonly stats: CodeCacheStats;
}

/** Caches not used by a run that writes new ones are removed once this old: they belong to an earlier build. */
export const STALE_CACHE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A scope folder's name (a subcommand, or `other`). Any other entry of the cache folder was left by an earlier
 * Mino, such as the folder of Node's own compile cache, which Mino used until December 2026, and is removed once
 * STALE_CACHE_MS old.
 */
export const SCOPE_NAME = /^[a-z]{1,20}$/;

export function openCodeCache(dir: string, scope: string): CodeCache {
  const folder = path.join(dir, scope);
  const compiled: Array<{ name: string; script: vm.Script; found: RunOutcome | null }> = [];
  const stats: CodeCacheStats = { hits: 0, misses: 0 };
  return {
    stats,
    compile(filename, source) {
      const name = cacheName(source);
      const text = source.toString(isAscii(source) ? 'latin1' : 'utf8');
      const { cachedData, outcome } = readCache(folder, name);
      const script = new vm.Script(wrap(text), {
        filename,
        ...(cachedData ? { cachedData } : {}),
        // The bundle has no import() (vite.cli.config.mts turns them into require()); one added later still
        // loads, with Node's warning that this loader is experimental.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      const found = cachedData && !script.cachedDataRejected ? outcome : null;
      if (found) stats.hits += 1;
      else stats.misses += 1;
      compiled.push({ name, script, found });
      return script.runInThisContext() as ModuleFunction;
    },
    save(outcome) {
      const used = new Set(compiled.map(({ name }) => name));
      const better = compiled.splice(0).filter(({ found }) => found === null || (found === 'failed' && outcome === 'succeeded'));
      removeLeftovers(dir);
      if (better.length === 0) return;
      try {
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        for (const { name, script } of better) {
          writeAtomically(cacheFile(folder, name, outcome), script.createCachedData());
          if (outcome === 'succeeded') fs.rmSync(cacheFile(folder, name, 'failed'), { force: true });
        }
        removeStale(folder, used);
      } catch {
        // ignore: without a cache the next run compiles again; nothing else depends on it
      }
    },
  };
}

function cacheName(source: Buffer): string {
  return createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex');
}

function cacheFile(folder: string, name: string, outcome: RunOutcome): string {
  return path.join(folder, outcome === 'succeeded' ? name : `${name}.failed-run`);
}

/** The cache of a successful run if there is one, else a failed run's. */
function readCache(folder: string, name: string): { cachedData?: Buffer; outcome: RunOutcome | null } {
  for (const outcome of OUTCOMES) {
    try {
      return { cachedData: fs.readFileSync(cacheFile(folder, name, outcome)), outcome };
    } catch {
      // ignore: none of this kind (or unreadable): the next kind, or the file's text, is compiled
    }
  }
  return { outcome: null };
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

/** Removes the old files of `folder` this run's caches (named `used`, whatever their run's outcome) are not. */
function removeStale(folder: string, used: ReadonlySet<string>): void {
  const now = Date.now();
  for (const name of fs.readdirSync(folder)) {
    if (used.has(name.split('.')[0]!)) continue;
    const file = path.join(folder, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_CACHE_MS) fs.rmSync(file, { force: true });
    } catch {
      // ignore: gone already (another run removed it)
    }
  }
}

/** Removes what an earlier Mino left in `dir` beside the scopes' folders, once nothing has written it for a while. */
function removeLeftovers(dir: string): void {
  const now = Date.now();
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    // ignore: no cache folder (yet), so nothing was left in it
    return;
  }
  for (const name of names) {
    if (SCOPE_NAME.test(name)) continue;
    const entry = path.join(dir, name);
    try {
      if (now - fs.lstatSync(entry).mtimeMs > STALE_CACHE_MS) fs.rmSync(entry, { recursive: true, force: true });
    } catch {
      // ignore: gone already, or not removable now; a later run tries again
    }
  }
}
