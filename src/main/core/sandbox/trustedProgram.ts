// Whether a program file can be changed only by root: the program that builds
// the sandbox must not be one the sandboxed command (or any other account)
// could swap for one that runs the command unconfined. So the file, every
// folder on the way to it and every link followed there must belong to root
// and be writable by root alone. A sticky folder writable by all (/tmp,
// /nix/store) is allowed: there only an entry's owner, here root, may rename
// or remove it.
import type { Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** Links followed before giving up: a chain longer than this is a loop or a trick. */
const MAX_LINKS = 16;
const STICKY = 0o1000;

/** The real path of `file` when only root can change it or its way there; otherwise why not, in words. */
export async function trustedProgram(file: string): Promise<{ real: string } | { problem: string }> {
  try {
    const real = await trustedPath(file, { links: 0 });
    const stat = await fs.stat(real);
    if (!stat.isFile()) return { problem: `${real} is not a file` };
    if ((stat.mode & 0o111) === 0) return { problem: `${real} is not executable` };
    return { real };
  } catch (error) {
    if (error instanceof UntrustedError) return { problem: error.message };
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { problem: `${file} cannot be checked (${code})` };
  }
}

class UntrustedError extends Error {}

/** Resolves `file` one entry at a time from the root, checking each entry (and each link's target) on the way. */
async function trustedPath(file: string, budget: { links: number }): Promise<string> {
  let current = '/';
  checkEntry(current, await fs.lstat(current));
  for (const part of path.resolve(file).split('/').filter((p) => p !== '')) {
    const next = path.join(current, part);
    const stat = await fs.lstat(next);
    if (stat.isSymbolicLink()) {
      // The link itself can be replaced only by whoever can write `current`, checked already; its target is checked in turn.
      budget.links += 1;
      if (budget.links > MAX_LINKS) throw new UntrustedError(`${file} passes through more than ${MAX_LINKS} links`);
      current = await trustedPath(path.resolve(current, await fs.readlink(next)), budget);
    } else {
      checkEntry(next, stat);
      current = next;
    }
  }
  return current;
}

function checkEntry(entry: string, stat: Stats): void {
  if (stat.uid !== 0) throw new UntrustedError(`${entry} is owned by user ${stat.uid}, not root`);
  const stickyFolder = stat.isDirectory() && (stat.mode & STICKY) !== 0;
  if (stickyFolder) return;
  if ((stat.mode & 0o002) !== 0) throw new UntrustedError(`${entry} is writable by others`);
  if ((stat.mode & 0o020) !== 0) throw new UntrustedError(`${entry} is writable by its group (group ${stat.gid})`);
}
