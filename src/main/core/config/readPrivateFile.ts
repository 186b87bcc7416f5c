// Reading a file of ~/.mino (config.json, mcp.json, recent projects, SOUL.md,
// secrets, session logs) the way a project file is read: only a regular file,
// never more than a cap, and never waiting. Anything else is there by mistake
// or by malice, and is refused with a message that names the file:
// - a FIFO would make a plain read wait forever for a writer, so the open is
//   non-blocking and the descriptor's type is checked before a byte is read;
// - a link to /dev/zero (or any device) would fill the heap, so devices are
//   refused and regular files are read up to their cap and one byte more;
// - a file left readable by others (0644) is narrowed to 0600 on the open
//   descriptor, as the README promises for every file in ~/.mino.
// A UTF-8 byte order mark, which some editors write, is dropped from text.
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { fsErrorReason, MinoHomeError } from './homeErrors';
import { PRIVATE_FILE_MODE } from './minoHome';
import { errorCode } from '../../../shared/errors';
import { errorText, log } from '../log/log';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** A file of ~/.mino that exists but cannot be used; the message names it and says what to do. */
export class PrivateFileError extends MinoHomeError {
  constructor(
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PrivateFileError';
  }
}

function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function sizeText(bytes: number): string {
  return bytes >= MiB ? `${Math.round((bytes / MiB) * 10) / 10} MiB` : bytes >= KiB ? `${Math.round(bytes / KiB)} KiB` : `${bytes} bytes`;
}

/**
 * The bytes of `file`, or null when it does not exist. Throws PrivateFileError
 * when it is not a regular file, is larger than `maxBytes`, or cannot be read.
 */
export async function readPrivateFile(file: string, maxBytes: number): Promise<Buffer | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new PrivateFileError(`Cannot read ${file}: ${fsErrorReason(error)}. Check its permissions.`, file, { cause: error });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new PrivateFileError(`${file} is ${kindOf(stat)}, not a regular file, so Mino did not read it. Replace it with a regular file or remove it.`, file);
    }
    if (stat.size > maxBytes) throw tooLarge(file, stat.size, maxBytes);
    if ((stat.mode & 0o077) !== 0) {
      // Another owner's file cannot be narrowed; reading it is still allowed.
      await handle.chmod(PRIVATE_FILE_MODE).catch((error: unknown) => log.warn('config.mode_not_tightened', { file, error: errorText(error) }));
    }
    // One byte more than the cap shows a file that grew after the stat.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) throw tooLarge(file, length, maxBytes);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof PrivateFileError) throw error;
    throw new PrivateFileError(`Cannot read ${file}: ${fsErrorReason(error)}.`, file, { cause: error });
  } finally {
    await handle.close();
  }
}

/** Like readPrivateFile, as UTF-8 text without a leading byte order mark. */
export async function readPrivateText(file: string, maxBytes: number): Promise<string | null> {
  const bytes = await readPrivateFile(file, maxBytes);
  if (bytes === null) return null;
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function tooLarge(file: string, size: number, maxBytes: number): PrivateFileError {
  return new PrivateFileError(
    `${file} is larger than Mino reads for it (${sizeText(size)}; at most ${sizeText(maxBytes)}), so it was not read. Check that it is the file you meant, or remove it.`,
    file,
  );
}
