// Where the images attached to messages are kept: ~/.mino/images/<sha256>,
// one file per distinct content (0600, in a 0700 directory), so the same
// screenshot pasted twice, or into two sessions, is kept once. A session's
// log refers to an image by that digest; the bytes are read back (and their
// digest checked) whenever a request or a window needs them. What is kept
// here counts towards the storage cap (the "Undo history size" setting):
// checkpoints/preImageStore.ts adds it when it decides what to drop.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_IMAGE_BYTES, notAnImageMessage, tooLargeMessage, type ImageAdded, type ImageRef } from '../../../shared/images';
import { errorCode } from '../../../shared/errors';
import { ensurePrivateDir, isPrivateTempName, minoPaths, writePrivateFile } from '../config/minoHome';
import { readPrivateFile } from '../config/readPrivateFile';
import { sha256Hex } from '../fs/readText';
import { errorText, log } from '../log/log';
import { sniffImageType } from './imageType';

export const IMAGES_DIR_NAME = 'images';
const DIGEST = /^[0-9a-f]{64}$/;

/** An image that cannot be attached; the message says why and what to do. */
export class ImageRefusedError extends Error {
  override name = 'ImageRefusedError';
}

export function imagesDir(homeDir: string): string {
  return path.join(minoPaths(homeDir).root, IMAGES_DIR_NAME);
}

/**
 * Keeps `bytes` as an image once they are checked: at most MAX_IMAGE_BYTES,
 * and a PNG, JPEG, WebP or GIF by their signature. `name` (a file name, or
 * "The image") is only for the refusal's message. Content already kept is
 * not written again.
 */
export async function keepImage(homeDir: string, bytes: Uint8Array, name = 'The image'): Promise<ImageAdded> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRefusedError(tooLargeMessage(name, bytes.byteLength));
  const mediaType = sniffImageType(bytes);
  if (mediaType === null) throw new ImageRefusedError(notAnImageMessage(name));
  const sha256 = sha256Hex(bytes);
  const file = path.join(imagesDir(homeDir), sha256);
  const kept = await readKept(file);
  if (kept === null || sha256Hex(kept) !== sha256) {
    // Not kept yet, or kept damaged (its bytes no longer match its name): written (again).
    await ensurePrivateDir(minoPaths(homeDir).root);
    await ensurePrivateDir(imagesDir(homeDir));
    await writePrivateFile(file, bytes);
  } else {
    // Attached again: it is recent again, so pruning (oldest first) keeps it.
    const now = new Date();
    await fs.utimes(file, now, now).catch((error: unknown) => log.warn('images.touch_failed', { file, error: errorText(error) }));
  }
  return { sha256, mediaType, bytes: bytes.byteLength };
}

/** A kept image, its type read again from its bytes; null when it is not kept (removed by hand) or no longer matches its name. */
export async function readImage(homeDir: string, sha256: string): Promise<{ ref: ImageRef; bytes: Buffer } | null> {
  if (!DIGEST.test(sha256)) return null;
  const bytes = await readKept(path.join(imagesDir(homeDir), sha256));
  if (bytes === null || sha256Hex(bytes) !== sha256) return null;
  const mediaType = sniffImageType(bytes);
  return mediaType === null ? null : { ref: { sha256, mediaType }, bytes };
}

async function readKept(file: string): Promise<Buffer | null> {
  try {
    return await readPrivateFile(file, MAX_IMAGE_BYTES);
  } catch (error) {
    // A kept image that cannot be read is as good as gone; the trail says why.
    log.warn('images.unreadable', { file, error: errorText(error) });
    return null;
  }
}

/** One kept image as pruning sees it: its file, its size and when it was last kept. */
export interface KeptImageFile {
  file: string;
  bytes: number;
  lastWrite: number;
}

/** The images ~/.mino/images holds (what counts towards the storage cap); unfinished writes are not counted. */
export async function keptImageFiles(homeDir: string): Promise<KeptImageFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(imagesDir(homeDir));
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') log.warn('images.usage_unreadable', { error: errorText(error) });
    return [];
  }
  const files: KeptImageFile[] = [];
  for (const name of names) {
    if (isPrivateTempName(name)) continue;
    const file = path.join(imagesDir(homeDir), name);
    try {
      const stat = await fs.lstat(file);
      files.push({ file, bytes: stat.size, lastWrite: stat.mtimeMs });
    } catch {
      // ignore: removed meanwhile, so it holds nothing to count
    }
  }
  return files;
}

/** The bytes ~/.mino/images holds. */
export async function keptImageBytes(homeDir: string): Promise<number> {
  return (await keptImageFiles(homeDir)).reduce((sum, image) => sum + image.bytes, 0);
}
