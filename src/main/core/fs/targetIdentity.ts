// What a write target is, independent of its name: the key the per-file
// write lock is taken on. An existing file is its device and inode; a file
// still to be created is its directory's device and inode plus the name.
import type { Stats } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectPath } from './projectPath';
import { checkDirectoryChain } from './confinedOpen';
import { errorCode, failed, type FsFailure } from './fsResult';
import { resolveInProject } from './projectPath';

export type IdentityResult = { ok: true; key: string } | FsFailure;

export function writeTargetIdentity(root: string, p: ProjectPath): IdentityResult {
  const chain = checkDirectoryChain(root, p);
  if (!chain.ok) return chain;
  const target = resolveInProject(root, p);
  const own = lstatOrNull(target);
  if (own === undefined) return failed(`could not check ${p}.`);
  if (own !== null) return { ok: true, key: `file:${own.dev}:${own.ino}` };
  const dir = lstatOrNull(path.dirname(target));
  if (!dir) return failed(`could not check the directory of ${p}.`);
  return { ok: true, key: `entry:${dir.dev}:${dir.ino}/${path.basename(target)}` };
}

/** The entry's lstat, null when it does not exist, undefined when it cannot be checked. */
function lstatOrNull(file: string): Stats | null | undefined {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? null : undefined;
  }
}
