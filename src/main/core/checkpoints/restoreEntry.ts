// One path as undo and redo see it: what it holds now, whether that is what a
// change image says, and putting an image back. Files are read as bytes
// (a captured command's change may be binary, or larger than the file tools'
// 64 KiB), through the same confined open as every project read; they are
// written through a temporary file, as text by fs/atomicWrite.ts, as bytes
// that are not UTF-8 by writeBytes.ts.
import * as fs from 'node:fs';
import { createFileAtomically, replaceFileAtomically, type PlannedTemporaryFile } from '../fs/atomicWrite';
import { checkDirectoryChain, closeReader, openConfinedFile } from '../fs/confinedOpen';
import { errorCode } from '../fs/fsResult';
import { resolveInProject, type ProjectPath } from '../fs/projectPath';
import { sha256Hex } from '../fs/readText';
import type { ChangeImage } from '../sessions/records';

/** What a path holds now; `other`: something undo cannot judge (with why), which it leaves alone. */
export type Current =
  | { kind: 'absent' }
  | { kind: 'directory'; mode: number }
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'symlink'; target: string }
  | { kind: 'other'; reason: string };

/** A file larger than this is not read to be compared: no change Mino keeps is this large. */
const MAX_COMPARED_BYTES = 64 * 1024 * 1024;

export type Restored = { ok: true } | { ok: false; reason: string };

export function currentState(root: string, p: ProjectPath): Current {
  // Never through a link or a file on the way: that could lead out of the project. A folder on the way that is gone holds nothing.
  const chain = checkDirectoryChain(root, p);
  if (!chain.ok) return chain.missingPath !== undefined ? { kind: 'absent' } : { kind: 'other', reason: chain.reason };
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(resolveInProject(root, p));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'absent' };
    return { kind: 'other', reason: `it could not be checked (${errorCode(error) ?? String(error)})` };
  }
  if (stat.isDirectory()) return { kind: 'directory', mode: stat.mode & 0o777 };
  if (stat.isSymbolicLink()) {
    try {
      return { kind: 'symlink', target: fs.readlinkSync(resolveInProject(root, p)) };
    } catch (error) {
      return { kind: 'other', reason: `it could not be checked (${errorCode(error) ?? String(error)})` };
    }
  }
  return readBytes(root, p);
}

/** Whether the path holds what `image` says: the same bytes (and permission bits, where the image has them), kind or target. */
export function matches(current: Current, image: ChangeImage): boolean {
  switch (image.kind) {
    case 'file':
      return current.kind === 'file' && sha256Hex(current.bytes) === image.sha256 && (image.mode === undefined || image.mode === current.mode);
    case 'directory':
      return current.kind === 'directory' && (image.mode === undefined || image.mode === current.mode);
    case 'symlink':
      return current.kind === 'symlink' && current.target === image.target;
    case 'absent':
      return current.kind === 'absent';
  }
}

/**
 * Makes the path hold `to`, from `current` (checked to be what the change
 * left). `toBytes`: the kept content, for a file. `temp`: the temporary file
 * a written file goes through, the one the reversal's first record names.
 */
export async function restore(root: string, p: ProjectPath, current: Current, to: ChangeImage, toBytes: Buffer, temp: PlannedTemporaryFile): Promise<Restored> {
  const absPath = resolveInProject(root, p);
  try {
    switch (to.kind) {
      case 'absent':
        if (current.kind === 'directory') fs.rmdirSync(absPath);
        else fs.unlinkSync(absPath);
        return { ok: true };
      case 'directory':
        // Only the permission bits changed: the folder stays, with what it holds.
        if (current.kind !== 'directory') fs.mkdirSync(absPath);
        if (to.mode !== undefined) fs.chmodSync(absPath, to.mode);
        return { ok: true };
      case 'symlink':
        if (current.kind === 'symlink') fs.unlinkSync(absPath);
        fs.symlinkSync(to.target, absPath);
        return { ok: true };
      case 'file':
        return await restoreFile(root, p, current, to, toBytes, temp);
    }
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return { ok: false, reason: 'the directory is not empty any more, so it was left as it is' };
    return { ok: false, reason: `it could not be changed (${code ?? String(error)})` };
  }
}

async function restoreFile(root: string, p: ProjectPath, current: Current, to: Extract<ChangeImage, { kind: 'file' }>, bytes: Buffer, temp: PlannedTemporaryFile): Promise<Restored> {
  const absPath = resolveInProject(root, p);
  if (current.kind === 'file') {
    if (current.bytes.equals(bytes)) {
      // Only the permission bits changed.
      fs.chmodSync(absPath, to.mode ?? current.mode);
      return { ok: true };
    }
    const mode = to.mode ?? current.mode;
    const written = await replaceFileAtomically(root, p, bytes, mode, temp);
    return written.ok ? { ok: true } : { ok: false, reason: written.reason };
  }
  if (current.kind !== 'absent') return { ok: false, reason: 'something other than a file is there now, so it was left as it is' };
  const created = await createFileAtomically(root, p, bytes, temp);
  if (!created.ok) return { ok: false, reason: created.reason };
  if (to.mode !== undefined) fs.chmodSync(absPath, to.mode);
  return { ok: true };
}

function readBytes(root: string, p: ProjectPath): Current {
  const opened = openConfinedFile(root, p);
  if (!opened.ok) return { kind: 'other', reason: opened.reason };
  const { fd, stat } = opened.entry;
  try {
    if (stat.size > MAX_COMPARED_BYTES) return { kind: 'other', reason: `it is ${Math.round(stat.size / (1024 * 1024))} MiB now, larger than any content Mino keeps` };
    const bytes = Buffer.allocUnsafe(stat.size);
    let length = 0;
    while (length < stat.size) {
      const read = fs.readSync(fd, bytes, length, stat.size - length, length);
      if (read === 0) break;
      length += read;
    }
    if (length !== stat.size) return { kind: 'other', reason: 'it changed while it was being read' };
    return { kind: 'file', bytes, mode: stat.mode & 0o777 };
  } catch (error) {
    return { kind: 'other', reason: `it could not be read (${errorCode(error) ?? String(error)})` };
  } finally {
    closeReader(fd);
  }
}
