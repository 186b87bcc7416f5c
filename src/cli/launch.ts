// out/cli/mino.js: starts the `mino` command (the bundle out/cli/main.js) from
// V8's code cache, so a run does not parse and compile ~1.7 MB of JavaScript
// again (about a fifth of a one-turn `mino exec`'s CPU time, measured by
// `npm run bench:startup`).
//
// Node 22.1 and later keep such a cache themselves (module.enableCompileCache);
// on Node 20 the bundle is compiled through vm.Script with the cached data,
// which V8 checks against its own version, flags and the source's length, and
// rejects if they differ. That check cannot tell two sources of the same
// length apart, so the cache file is named by a hash of the source, and it
// is only read from a folder and a file of this user that no one else may
// write: code read from it runs as this user.
//
// Anything that goes wrong with the cache only costs the time it would save:
// the bundle then runs as a plain require(). NODE_DISABLE_COMPILE_CACHE=1 (the
// variable Node itself reads) turns it off.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

const MAIN = path.join(__dirname, 'main.js');

/** ~/.cache/mino/v8 (or under $XDG_CACHE_HOME), made private to this user; null when it cannot be. */
function cacheDir(): string | null {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  const dir = path.join(base, 'mino', 'v8');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return ownedByMe(fs.statSync(dir)) ? dir : null;
  } catch {
    return null;
  }
}

/** Owned by this user and writable by no one else (on Windows, which has no such modes, the folder's ACL decides). */
function ownedByMe(stat: fs.Stats): boolean {
  if (typeof process.getuid !== 'function') return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    if (!ownedByMe(fs.fstatSync(fd))) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A cache file of another build is removed once it has not been rewritten for this long (a build's file is never rewritten while it is valid). */
const STALE_MS = 7 * 24 * 60 * 60 * 1000;
const CACHE_NAME = /^main-[0-9a-f]{32}\.bin$/;

function writeCache(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
  } catch {
    // ignore: a cache that cannot be written only costs the time it would save; the next run tries again
    fs.rmSync(temp, { force: true });
    return;
  }
  // Each build writes a file of its own: those of builds not run for a week go, so upgrades do not pile them up.
  try {
    const dir = path.dirname(file);
    for (const name of fs.readdirSync(dir)) {
      const other = path.join(dir, name);
      if (CACHE_NAME.test(name) && other !== file && Date.now() - fs.statSync(other).mtimeMs > STALE_MS) fs.rmSync(other, { force: true });
    }
  } catch {
    // ignore: an old cache file that cannot be removed now is left for a later run; it is never read by this build
  }
}

/** Runs main.js as require() would (one module, in require.cache), compiled with the cached data when it fits. */
function runWithCodeCache(dir: string): void {
  const source = fs.readFileSync(MAIN, 'utf8');
  const key = createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 32);
  const file = path.join(dir, `main-${key}.bin`);
  const cachedData = readCache(file);
  const script = new vm.Script(Module.wrap(source.replace(/^#!.*/, '')), { filename: MAIN, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    // At exit, so the functions this run compiled (a whole turn's, for `mino exec`) are in the cache too.
    process.once('exit', () => writeCache(file, script.createCachedData()));
  }
  const main = new Module(MAIN, module);
  main.filename = MAIN;
  main.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(__dirname);
  (Module as unknown as { _cache: Record<string, Module> })._cache[MAIN] = main;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(main.exports, main.exports, Module.createRequire(MAIN), main, MAIN, __dirname);
  main.loaded = true;
}

function launch(): void {
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? null : cacheDir();
  if (dir === null) {
    module.require(MAIN);
    return;
  }
  const enableCompileCache = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof enableCompileCache === 'function') {
    enableCompileCache(dir);
    module.require(MAIN);
    return;
  }
  runWithCodeCache(dir);
}

launch();
