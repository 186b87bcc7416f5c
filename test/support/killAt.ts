// Makes this process kill itself (SIGKILL) at a chosen step of a file write,
// as a crash or `kill -9` at the worst moment would: just after a file whose
// path matches `afterOpen` is created, or just before one matching
// `beforePublish` is renamed or linked into place. Patches the modules
// themselves (not a namespace copy), so every importer's functions are these.
import type * as Fs from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

export function killAt(steps: { afterOpen?: RegExp; beforePublish?: RegExp }): void {
  const fs: typeof Fs = process.getBuiltinModule('node:fs');
  const promises: typeof FsPromises = process.getBuiltinModule('node:fs/promises');
  const die = () => process.kill(process.pid, 'SIGKILL');
  const matches = (pattern: RegExp | undefined, file: unknown) => pattern !== undefined && typeof file === 'string' && pattern.test(file);

  const openSync = fs.openSync;
  fs.openSync = ((file: Fs.PathLike, flags: Fs.OpenMode, mode?: Fs.Mode | null) => {
    const fd = openSync(file, flags, mode);
    if (matches(steps.afterOpen, file)) die();
    return fd;
  }) as typeof Fs.openSync;
  const open = promises.open;
  promises.open = (async (file: Fs.PathLike, flags?: string | number, mode?: Fs.Mode) => {
    const handle = await open(file, flags, mode);
    if (matches(steps.afterOpen, file)) die();
    return handle;
  }) as typeof FsPromises.open;

  const renameSync = fs.renameSync;
  fs.renameSync = (from, to) => {
    if (matches(steps.beforePublish, from)) die();
    renameSync(from, to);
  };
  const linkSync = fs.linkSync;
  fs.linkSync = (from, to) => {
    if (matches(steps.beforePublish, from)) die();
    linkSync(from, to);
  };
  const rename = promises.rename;
  promises.rename = async (from, to) => {
    if (matches(steps.beforePublish, from)) die();
    return rename(from, to);
  };
  const link = promises.link;
  promises.link = async (from, to) => {
    if (matches(steps.beforePublish, from)) die();
    return link(from, to);
  };
  syncBuiltinESMExports();
}
