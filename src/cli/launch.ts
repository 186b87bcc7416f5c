// out/cli/mino.js: starts the `mino` command (the bundle out/cli/main.js and
// the chunks it loads) from V8 code caches (codeCache.ts), kept in a folder of
// this user that no one else may write: code read from it runs as this user.
//
// Anything that goes wrong with the cache only costs the time it would save:
// the bundle then runs as a plain require(). NODE_DISABLE_COMPILE_CACHE=1 (the
// variable Node reads for its own compile cache) turns it off.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { openCodeCache, SCOPE_NAME, type CodeCache } from './codeCache';

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

/** The subcommand typed, as a folder name: each keeps its own caches, since each runs other functions. */
function cacheScope(): string {
  const command = process.argv[2] ?? '';
  return SCOPE_NAME.test(command) ? command : 'other';
}

interface LoadingModule {
  exports: unknown;
}
type LoadFile = (module: LoadingModule, filename: string) => void;

/**
 * Loads this folder's own `.js` files (the bundle) through `cache`, read as bytes (codeCache.ts hashes and
 * decodes them); every other file as Node does. The hook is Node's loader for `.js` files (require.extensions),
 * which Node also uses for extensions it has no loader of its own for, and which reads the file as UTF-8 text
 * before compiling it.
 */
function loadThrough(cache: CodeCache): void {
  const extensions = (Module as unknown as { _extensions: Record<string, LoadFile> })._extensions;
  const nodeLoad = extensions['.js']!;
  const ownFiles = __dirname + path.sep;
  extensions['.js'] = function load(this: unknown, module: LoadingModule, filename: string) {
    if (!filename.startsWith(ownFiles) || !filename.endsWith('.js')) return nodeLoad.call(this, module, filename);
    const moduleFunction = cache.compile(filename, fs.readFileSync(filename));
    moduleFunction.call(module.exports, module.exports, Module.createRequire(filename), module, filename, path.dirname(filename));
  };
  process.once('exit', (code) => cache.save(code === 0 ? 'succeeded' : 'failed'));
}

function launch(): void {
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? null : cacheDir();
  if (dir !== null) loadThrough(openCodeCache(dir, cacheScope()));
  module.require(MAIN);
}

launch();
