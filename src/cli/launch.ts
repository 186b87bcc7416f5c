// out/cli/mino.js: starts the `mino` command (the bundle out/cli/main.js) from
// V8's code cache, so a run does not parse and compile ~1.7 MB of JavaScript
// again (about a fifth of a one-turn `mino exec`'s CPU time, measured by
// `npm run bench:startup`). Node keeps the cache itself
// (module.enableCompileCache, Node 22.1 and later), in a folder of this user
// that no one else may write: code read from it runs as this user.
//
// Anything that goes wrong with the cache only costs the time it would save:
// the bundle then runs as a plain require(), as it does on a Node without the
// cache. NODE_DISABLE_COMPILE_CACHE=1 (the variable Node itself reads) turns
// it off.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

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

function launch(): void {
  const dir = process.env.NODE_DISABLE_COMPILE_CACHE ? null : cacheDir();
  if (dir === null) {
    module.require(MAIN);
    return;
  }
  const enableCompileCache = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof enableCompileCache === 'function') enableCompileCache(dir);
  module.require(MAIN);
}

launch();
