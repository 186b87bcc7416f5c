// Publishing bytes that are not UTF-8 text (a binary file a command changed,
// put back by undo or redo) exactly as fs/atomicWrite.ts publishes text:
// a temporary file in the same directory, created exclusively through the
// verified directory route, written and fsynced, then linked (create) or
// renamed (replace) into place, and the directory fsynced. atomicWrite.ts
// takes its content as text only; were it to take bytes too, this file would
// go (asked of its owner in the report of issue 23).
import * as fs from 'node:fs';
import { promisify } from 'node:util';
import type { PlannedTemporaryFile, WriteResult } from '../fs/atomicWrite';
import { openDirectoryRoute, splitParent } from '../fs/directoryRoute';
import { errorCode, failed } from '../fs/fsResult';
import type { ProjectPath } from '../fs/projectPath';

const { constants } = fs;
const TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0);
const write = promisify(fs.write);
const fsync = promisify(fs.fsync);

/**
 * Puts `bytes` at `p` through the planned temporary file: `replace` an
 * existing file (with permission bits `mode`), or `create` one where nothing
 * is (refused if something took the name meanwhile; the umask decides its bits).
 */
export async function writeBytesAtomically(root: string, p: ProjectPath, bytes: Buffer, how: { replace: number } | 'create', temp: PlannedTemporaryFile): Promise<WriteResult> {
  const opened = openDirectoryRoute(root, splitParent(p).dir);
  if (!opened.ok) return opened;
  const dir = opened.route;
  const tempPath = dir.at(splitParent(temp.path).name);
  const target = dir.at(splitParent(p).name);
  let fd: number | null = null;
  let published = false;
  try {
    fd = fs.openSync(tempPath, TEMP_FLAGS, how === 'create' ? 0o666 : how.replace);
    const afterCreate = dir.verify();
    if (afterCreate) return afterCreate;
    if (how !== 'create') fs.fchmodSync(fd, how.replace);
    for (let offset = 0; offset < bytes.length; ) offset += (await write(fd, bytes, offset, bytes.length - offset, offset)).bytesWritten;
    await fsync(fd);
    const beforePlace = dir.verify();
    if (beforePlace) return beforePlace;
    if (how === 'create') fs.linkSync(tempPath, target);
    else fs.renameSync(tempPath, target);
    published = true;
    await fsync(dir.fd);
    return { ok: true };
  } catch (error) {
    const code = errorCode(error) ?? String(error);
    if (published) return { ok: true, note: `The content is in place, but Mino could not confirm it reached the disk (${code}).` };
    return failed(code === 'EEXIST' ? `${p} appeared before it could be made.` : `could not write ${p} (${code}); it was not changed.`);
  } finally {
    if (fd !== null) cleanUp(tempPath, fd);
    dir.close();
  }
}

/** After a link the temporary name is still there, after a failed step it may be, after a rename it is gone. */
function cleanUp(tempPath: string, fd: number): void {
  try {
    fs.rmSync(tempPath, { force: true });
  } catch {
    // ignore: the name is the reversal's own, recognised and removed by the next undo or redo (reverseChanges.ts)
  }
  try {
    fs.closeSync(fd);
  } catch {
    // ignore: the content was fsynced, or the write is being abandoned
  }
}
