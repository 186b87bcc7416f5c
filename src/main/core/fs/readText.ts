// Reads a project file as text, the only kind the file tools handle: a
// regular UTF-8 file of at most 64 KiB with no NUL byte. The digest it returns
// is what an approval is bound to.
// Synchronous, like confinedOpen.ts: the read is at most 64 KiB + 1 bytes.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectPath } from './projectPath';
import { closeReader, openConfinedFile } from './confinedOpen';
import { errorCode, failed, refused, type FsFailure } from './fsResult';

/** Largest file the file tools read (and so can edit or overwrite). */
export const MAX_TEXT_BYTES = 64 * 1024;

// Known binary formats are refused by name, before a single byte is read;
// other binaries are caught by their NUL bytes.
const BINARY_EXTENSIONS = new Set([
  '.pdf', '.png', '.jpg', '.jpeg', '.gif', '.bmp', '.ico', '.webp', '.tif', '.tiff',
  '.mp3', '.wav', '.ogg', '.flac', '.aac', '.mp4', '.avi', '.mkv', '.mov', '.webm',
  '.zip', '.rar', '.7z', '.tar', '.gz', '.bz2', '.xz', '.zst', '.jar',
  '.exe', '.dll', '.so', '.dylib', '.o', '.a', '.class', '.wasm', '.pyc',
  '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.sqlite', '.db',
  '.woff', '.woff2', '.ttf', '.otf',
]);

export interface TextFile {
  text: string;
  /** Size in bytes. */
  size: number;
  /** The bytes read; their SHA-256 is what an approval is bound to. */
  bytes: Buffer;
  /** Permission bits of the file, kept when it is overwritten. */
  mode: number;
}

export type TextReadResult = { ok: true; file: TextFile } | FsFailure;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads `p` under the real project directory `root`, refusing anything that is not confined UTF-8 text. */
export function readProjectText(root: string, p: ProjectPath): TextReadResult {
  const opened = openConfinedFile(root, p);
  if (!opened.ok) return opened;
  const { fd, stat } = opened.entry;
  try {
    if (BINARY_EXTENSIONS.has(path.extname(p).toLowerCase())) return binaryRefusal(p, stat.size);
    if (stat.size > MAX_TEXT_BYTES) return tooLarge(p, stat.size);
    // One byte more than the limit shows a file that grew after fstat.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, MAX_TEXT_BYTES) + 1);
    let length = 0;
    for (;;) {
      const wanted = buffer.length - length;
      const bytesRead = fs.readSync(fd, buffer, length, wanted, length);
      length += bytesRead;
      // A regular file reads short only at its end, so a short read needs no second call.
      if (bytesRead < wanted || length === buffer.length) break;
    }
    if (length > MAX_TEXT_BYTES) return tooLarge(p, length);
    // Grown (or shrunk) between fstat and the read: what was read may be torn.
    if (length !== stat.size) return changedWhileReading(p);
    const bytes = buffer.subarray(0, length);
    if (bytes.includes(0)) return binaryRefusal(p, length);
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return refused(`${p} is not valid UTF-8 text; file tools read and write UTF-8 text only.`);
    }
    return {
      ok: true,
      file: { text, size: length, bytes, mode: stat.mode & 0o777 },
    };
  } catch (error) {
    return failed(`could not read ${p} (${errorCode(error) ?? String(error)}).`);
  } finally {
    closeReader(fd);
  }
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Size in whole KiB, rounded up, as the refusals state it. */
export function kibibytes(size: number): number {
  return Math.ceil(size / 1024);
}

function binaryRefusal(p: ProjectPath, size: number): FsFailure {
  return refused(`${p}: binary file, ${kibibytes(size)} KiB; not shown.`);
}

function changedWhileReading(p: ProjectPath): FsFailure {
  return failed(`${p} changed while it was being read; read it again.`);
}

function tooLarge(p: ProjectPath, size: number): FsFailure {
  return refused(
    `${p} is ${kibibytes(size)} KiB; file tools handle files of at most 64 KiB. ` +
      'Work on a smaller file, or look at part of this one another way (for example a bash command such as head).',
  );
}
