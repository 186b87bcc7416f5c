// The `mino` launcher's code caches (src/cli/codeCache.ts), against a real
// temp folder: written after a run, private, found by the file's text, kept
// per scope, pruned. Whether a second process compiles from the cache (and
// replaces a damaged one) needs a fresh V8 isolate, which this process is not
// (V8 keeps its own in-memory cache of what it compiled): the built command's
// tests show that (test/integration/cli/bundle.test.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCodeCache, STALE_CACHE_MS } from '../../../src/cli/codeCache';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mino-code-cache-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const SOURCE = '#!/usr/bin/env node\nmodule.exports = { double: (n) => n * 2, name: __filename };\n';

/** Compiles and runs `text` as the module `file`, as the launcher does; its exports. */
function load(cache: ReturnType<typeof openCodeCache>, text: string, file = '/app/main.js'): { double(n: number): number; name: string; greeting?: string } {
  const module = { exports: {} as never };
  const noRequire = ((id: string) => {
    throw new Error(`the test module required ${id}`);
  }) as unknown as NodeJS.Require;
  cache.compile(file, Buffer.from(text, 'utf8'))(module.exports, noRequire, module, file, path.dirname(file));
  return module.exports;
}

const cacheFiles = (scope = 'exec') => fs.readdirSync(path.join(dir, scope));

describe('the launcher code cache', () => {
  it('runs a module without a cache, and writes one, private to this user, when saved', () => {
    const first = openCodeCache(dir, 'exec');
    const loaded = load(first, SOURCE);
    expect(loaded.double(21)).toBe(42);
    expect(loaded.name).toBe('/app/main.js');
    expect(first.stats).toEqual({ hits: 0, misses: 1 });
    first.save('succeeded');
    expect(cacheFiles()).toHaveLength(1);
    expect(fs.statSync(path.join(dir, 'exec', cacheFiles()[0])).mode & 0o077).toBe(0);

  });

  it('reads a file of ASCII and a file with other characters as the same text Node would', () => {
    const cache = openCodeCache(dir, 'exec');
    expect(load(cache, SOURCE).double(4)).toBe(8);
    const accented = "module.exports = { double: (n) => n * 2, greeting: 'h\u00e9llo \u2713' };\n";
    expect(load(cache, accented, '/app/accented.js').greeting).toBe('h\u00e9llo \u2713');
  });

  it('never finds the old cache for a changed file, even when its length is the same', () => {
    const first = openCodeCache(dir, 'exec');
    load(first, SOURCE);
    first.save('succeeded');
    const changed = SOURCE.replace('n * 2', 'n * 3');
    expect(changed).toHaveLength(SOURCE.length);
    const second = openCodeCache(dir, 'exec');
    expect(load(second, changed).double(2)).toBe(6);
    expect(second.stats).toEqual({ hits: 0, misses: 1 });
    second.save('succeeded');
    expect(cacheFiles()).toHaveLength(2);
  });

  it('keeps each scope apart', () => {
    const exec = openCodeCache(dir, 'exec');
    load(exec, SOURCE);
    exec.save('succeeded');
    const other = openCodeCache(dir, 'rules');
    load(other, SOURCE);
    expect(other.stats.misses).toBe(1);
    other.save('succeeded');
    expect(cacheFiles('rules')).toEqual(cacheFiles('exec'));
  });

  it('keeps a failed run\'s caches apart, and lets the next successful run replace them', () => {
    const failed = openCodeCache(dir, 'exec');
    load(failed, SOURCE);
    failed.save('failed');
    const [name] = cacheFiles();
    expect(name).toMatch(/^[0-9a-f]{64}\.failed-run$/);

    // Another failed run finds it and writes nothing.
    const again = openCodeCache(dir, 'exec');
    load(again, SOURCE);
    const before = fs.statSync(path.join(dir, 'exec', name!)).mtimeMs;
    again.save('failed');
    expect(cacheFiles()).toEqual([name]);
    expect(fs.statSync(path.join(dir, 'exec', name!)).mtimeMs).toBe(before);

    const succeeded = openCodeCache(dir, 'exec');
    load(succeeded, SOURCE);
    succeeded.save('succeeded');
    expect(cacheFiles()).toEqual([name!.replace('.failed-run', '')]);

    // A failed run after that finds the successful run's cache and leaves it.
    const later = openCodeCache(dir, 'exec');
    load(later, SOURCE);
    later.save('failed');
    expect(cacheFiles()).toEqual([name!.replace('.failed-run', '')]);
  });

  it('removes caches a run did not use once they are old, and keeps recent ones', () => {
    const scope = path.join(dir, 'exec');
    fs.mkdirSync(scope, { recursive: true });
    const old = path.join(scope, 'old');
    const recent = path.join(scope, 'recent');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(recent, 'x');
    const longAgo = (Date.now() - STALE_CACHE_MS - 60_000) / 1000;
    fs.utimesSync(old, longAgo, longAgo);
    const cache = openCodeCache(dir, 'exec');
    load(cache, SOURCE);
    cache.save('succeeded');
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
    expect(cacheFiles()).toHaveLength(2); // recent, and the one written
  });

  it('removes what an earlier Mino left beside the scopes (Node\'s own compile cache) once it is old', () => {
    const nodeCache = path.join(dir, 'v22.23.3-x64-1a2b3c4d-0');
    const recentLeftover = path.join(dir, 'v24.21.0-x64-5e6f7a8b-0');
    for (const folder of [nodeCache, recentLeftover]) {
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'entry'), 'x');
    }
    const longAgo = (Date.now() - STALE_CACHE_MS - 60_000) / 1000;
    fs.utimesSync(nodeCache, longAgo, longAgo);
    const otherScope = path.join(dir, 'rules');
    fs.mkdirSync(otherScope);
    fs.utimesSync(otherScope, longAgo, longAgo);
    const cache = openCodeCache(dir, 'exec');
    load(cache, SOURCE);
    cache.save('succeeded');
    expect(fs.readdirSync(dir).sort()).toEqual(['exec', 'rules', 'v24.21.0-x64-5e6f7a8b-0']);
  });

  it('removes them also after a run that found every cache and wrote none', () => {
    const first = openCodeCache(dir, 'exec');
    load(first, SOURCE);
    first.save('succeeded');
    const written = cacheFiles();
    const leftover = path.join(dir, 'v22.23.3-x64-1a2b3c4d-0');
    fs.mkdirSync(leftover);
    const longAgo = (Date.now() - STALE_CACHE_MS - 60_000) / 1000;
    fs.utimesSync(leftover, longAgo, longAgo);
    const warm = openCodeCache(dir, 'exec');
    load(warm, SOURCE);
    warm.save('succeeded');
    expect(warm.stats).toEqual({ hits: 1, misses: 0 });
    expect(cacheFiles()).toEqual(written);
    expect(fs.existsSync(leftover)).toBe(false);
  });

  it('writes nothing, and throws nothing, where the folder cannot be made', () => {
    const blocked = path.join(dir, 'file');
    fs.writeFileSync(blocked, 'not a folder');
    const cache = openCodeCache(blocked, 'exec');
    expect(load(cache, SOURCE).double(1)).toBe(2);
    expect(() => cache.save('succeeded')).not.toThrow();
  });
});
