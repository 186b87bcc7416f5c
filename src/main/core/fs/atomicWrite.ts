// Publishes new file content so that readers see the old content or the new,
// never a mixture: a temporary file in the same directory (created
// exclusively, written, fsynced), then a hard link (create: fails if the name
// exists) or a rename (replace), then an fsync of the directory. No temporary
// name survives any outcome.
//
// The data is written and both fsyncs are made asynchronously, since they can
// take milliseconds; the name operations (open, link, rename, unlink) are
// synchronous, as in confinedOpen.ts, because each takes microseconds on a
// local disk while a thread-pool round trip costs far more.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { promisify } from 'node:util';
import type { ProjectPath } from './projectPath';
import { entryOf, openDirectoryRoute, splitParent } from './directoryRoute';
import { errorCode, failed, type FsFailure } from './fsResult';
import { errorText, log } from '../log/log';

/** `note`: the new content is in place, but something after publishing (making it durable) failed. */
export type WriteResult = { ok: true; note?: string } | FsFailure;

/** Why a create was not published: the name was taken after the check. Tools turn this into their changed-file result. */
export const TARGET_APPEARED = 'target-appeared';

export type PublishResult = WriteResult | { ok: false; kind: typeof TARGET_APPEARED; reason: string };

const { constants } = fs;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW;
// Leaves room for the prefix and random suffix within the usual 255-byte name limit.
const MAX_TEMP_STEM = 100;

const write = promisify(fs.write);
const fsync = promisify(fs.fsync);

/**
 * The temporary file a write will use, chosen ahead so that it can be saved
 * in the session log before the file exists: after a crash, the log says
 * which leftover is this write's (see leftoverTemporaryFiles.ts).
 */
export interface PlannedTemporaryFile {
  /** Project path of the temporary file. */
  path: ProjectPath;
  /** Identity ("dev:ino") of the directory it goes in, as it was when chosen. */
  dir: string;
}

export function planTemporaryFile(root: string, p: ProjectPath): { ok: true; temp: PlannedTemporaryFile } | FsFailure {
  const { dir, name } = splitParent(p);
  const opened = openDirectoryRoute(root, dir);
  if (!opened.ok) return opened;
  try {
    const stat = fs.fstatSync(opened.route.fd);
    return { ok: true, temp: { path: entryOf(dir, temporaryName(name)), dir: `${stat.dev}:${stat.ino}` } };
  } finally {
    opened.route.close();
  }
}

/** What a write publishes: text (written as UTF-8), or bytes exactly as given (a binary file undo puts back). */
export type FileContent = string | Uint8Array;

/** Creates `p` with `content`; refuses (TARGET_APPEARED) if anything has taken the name meanwhile. */
export async function createFileAtomically(root: string, p: ProjectPath, content: FileContent, temp?: PlannedTemporaryFile): Promise<PublishResult> {
  // No mode: the umask decides, as for any newly created file.
  return publish(root, p, content, null, temp, (temp, target): PublishResult => {
    try {
      fs.linkSync(temp, target);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return { ok: false, kind: TARGET_APPEARED, reason: `${p} appeared before it could be created.` };
      throw error;
    }
    // The temporary name is removed with the others, after publishing.
    return { ok: true };
  });
}

/** Replaces the existing file `p` with `content`, giving the new file the permission bits `mode`. */
export async function replaceFileAtomically(root: string, p: ProjectPath, content: FileContent, mode: number, temp?: PlannedTemporaryFile): Promise<WriteResult> {
  return publish(root, p, content, mode, temp, (temp, target): WriteResult => {
    fs.renameSync(temp, target);
    return { ok: true };
  });
}

/** Names of temporary files this module creates, so callers (and tests) can recognise strays. */
export function isTemporaryName(name: string): boolean {
  return /^\..*\.mino-[0-9a-f]{12}\.tmp$/.test(name);
}

async function publish<Placed extends PublishResult>(
  root: string,
  p: ProjectPath,
  content: FileContent,
  mode: number | null,
  planned: PlannedTemporaryFile | undefined,
  place: (temp: string, target: string) => Placed,
): Promise<Placed | WriteResult> {
  const { dir: dirPath, name } = splitParent(p);
  const opened = openDirectoryRoute(root, dirPath);
  if (!opened.ok) return opened;
  const dir = opened.route;
  const tempName = planned ? splitParent(planned.path).name : temporaryName(name);
  const temp = dir.at(tempName);
  let tempFd: number | null = null;
  let tempCreated = false;
  let published = false;
  try {
    // Every step names its entry through the verified directory (see
    // directoryRoute.ts); where that route can be redirected, each step is
    // followed by a check and a failed check stops the write.
    tempFd = fs.openSync(temp, TEMP_FLAGS, mode ?? 0o666);
    tempCreated = true;
    const afterCreate = dir.verify();
    if (afterCreate) return afterCreate;
    // By path, the temp file must also be found where it was meant to be: one
    // created through a link swapped in and out again lies elsewhere.
    if (!dir.pinned && !sameFile(temp, tempFd)) return failed(`a directory on the way to ${p} was replaced while writing; nothing was written.`);
    // chmod, unlike open, ignores the umask, so kept permission bits are exact.
    if (mode !== null) fs.fchmodSync(tempFd, mode);
    await writeAll(tempFd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    await fsync(tempFd);
    const beforePlace = dir.verify();
    if (beforePlace) return beforePlace;
    const placed = place(temp, dir.at(name));
    if (!placed.ok) return placed;
    published = true;
    const afterPlace = dir.verify();
    if (afterPlace) return { ok: true, note: `The new content was published, but ${afterPlace.reason} Check ${p}.` };
    // After a link the temporary name still exists; after a rename it is already gone.
    fs.rmSync(temp, { force: true });
    tempCreated = false;
    // Makes the new name durable: without it a crash could lose the rename or link.
    await fsync(dir.fd);
    return { ok: true };
  } catch (error) {
    const code = errorCode(error) ?? String(error);
    // Once published, the file has changed: saying otherwise would send the model to redo a done write.
    if (published) return { ok: true, note: `The new content is in place, but Mino could not confirm it reached the disk (${code}).` };
    return failed(`could not write ${p} (${code}); the file was not changed.`);
  } finally {
    // A temp name left by a failed step is removed where it was made. By
    // path (no pinned route), only if the name still leads to the file this
    // call created, which is then wherever a swapped path sent it.
    if (tempCreated && (dir.pinned || sameFile(temp, tempFd))) removeQuietly(temp);
    closeQuietly(tempFd);
    dir.close();
  }
}

async function writeAll(fd: number, data: Uint8Array): Promise<void> {
  for (let offset = 0; offset < data.length; ) {
    const { bytesWritten } = await write(fd, data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}

function sameFile(file: string, fd: number | null): boolean {
  if (fd === null) return false;
  try {
    const named = fs.lstatSync(file);
    const opened = fs.fstatSync(fd);
    return named.isFile() && named.dev === opened.dev && named.ino === opened.ino;
  } catch {
    return false;
  }
}

/** Removes a leftover temporary file; one that cannot be removed is still recognisable by its name. */
function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch (error) {
    // The write's own outcome is what the caller needs; the leftover is only worth a line.
    log.warn('write.temp_not_removed', { file, error: errorText(error) });
  }
}

/** Closes a descriptor whose outcome no longer matters: the data was fsynced, or the write is being abandoned. */
function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    fs.closeSync(fd);
  } catch (error) {
    // Nothing depends on it.
    log.debug('write.close_failed', { error: errorText(error) });
  }
}

function temporaryName(base: string): string {
  return `.${base.slice(0, MAX_TEMP_STEM)}.mino-${randomBytes(6).toString('hex')}.tmp`;
}
