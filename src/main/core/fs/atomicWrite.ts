// Publishes new file content so that readers see the old content or the new,
// never a mixture: a temporary file in the same directory (created
// exclusively, written, fsynced), then a hard link (create: fails if the name
// exists) or a rename (replace), then an fsync of the directory. No temporary
// name survives any outcome.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { ProjectPath } from '../tools/types';
import { checkDirectoryChain, closeInBackground, descriptorPath } from './confinedOpen';
import { errorCode, failed, type FsFailure } from './fsResult';
import { resolveInProject } from './projectPath';

export type WriteResult = { ok: true } | FsFailure;

/** Why a create was not published: the name was taken after the check. Tools turn this into their changed-file result. */
export const TARGET_APPEARED = 'target-appeared';

export type PublishResult = WriteResult | { ok: false; kind: typeof TARGET_APPEARED; reason: string };

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const TEMP_FLAGS = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | O_NOFOLLOW;
// Leaves room for the prefix and random suffix within the usual 255-byte name limit.
const MAX_TEMP_STEM = 100;

/** Creates `p` with `content`; refuses (TARGET_APPEARED) if anything has taken the name meanwhile. */
export async function createFileAtomically(root: string, p: ProjectPath, content: string): Promise<PublishResult> {
  // No mode: the umask decides, as for any newly created file.
  return publish(root, p, content, null, async (temp, target): Promise<PublishResult> => {
    try {
      await fs.link(temp, target);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return { ok: false, kind: TARGET_APPEARED, reason: `${p} appeared before it could be created.` };
      throw error;
    }
    await fs.unlink(temp);
    return { ok: true };
  });
}

/** Replaces the existing file `p` with `content`, giving the new file the permission bits `mode`. */
export async function replaceFileAtomically(root: string, p: ProjectPath, content: string, mode: number): Promise<WriteResult> {
  return publish(root, p, content, mode, async (temp, target): Promise<WriteResult> => {
    await fs.rename(temp, target);
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
  content: string,
  mode: number | null,
  place: (temp: string, target: string) => Promise<Placed>,
): Promise<Placed | WriteResult> {
  const chain = await checkDirectoryChain(root, p);
  if (!chain.ok) return chain;
  const target = resolveInProject(root, p);
  const dir = path.dirname(target);
  const temp = path.join(dir, temporaryName(path.basename(target)));
  // The directory is opened alongside the temp file, ready for the final fsync.
  const openingDir = fs.open(dir, constants.O_RDONLY | O_DIRECTORY);
  openingDir.catch(() => undefined); // awaited below, or never needed if the temp file fails first
  let tempCreated = false;
  try {
    const handle = await fs.open(temp, TEMP_FLAGS, mode ?? 0o666);
    tempCreated = true;
    const written = await writeAndSync(handle, temp, content, mode);
    if (!written.ok) return written;
    const dirHandle = await openingDir;
    const placed = await place(temp, target);
    if (!placed.ok) return placed;
    tempCreated = false;
    // Makes the new name durable: without it a crash could lose the rename or link.
    await dirHandle.sync();
    return { ok: true };
  } catch (error) {
    return failed(`could not write ${p} (${errorCode(error) ?? String(error)}); the file was not changed.`);
  } finally {
    if (tempCreated) await fs.rm(temp, { force: true });
    openingDir.then(closeInBackground, () => undefined);
  }
}

/** Writes and fsyncs the temp file. Its descriptor is closed in the background: the data is durable once synced. */
async function writeAndSync(handle: FileHandle, temp: string, content: string, mode: number | null): Promise<WriteResult> {
  try {
    // These three are independent, so they run together. The location check
    // matters: a directory swapped for a link after the chain check would have
    // sent the temp file elsewhere. chmod, unlike open, ignores the umask, so
    // kept permission bits are exact.
    const [located] = await Promise.all([
      descriptorPath(handle),
      mode === null ? undefined : handle.chmod(mode),
      handle.writeFile(content, 'utf8'),
    ]);
    if (located !== null && located !== temp) {
      return failed('a directory on the path was replaced while writing; nothing was written.');
    }
    await handle.sync();
    return { ok: true };
  } finally {
    closeInBackground(handle);
  }
}

function temporaryName(base: string): string {
  return `.${base.slice(0, MAX_TEMP_STEM)}.mino-${randomBytes(6).toString('hex')}.tmp`;
}
