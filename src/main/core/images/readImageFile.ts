// An image file the person named (mino exec --image FILE): read only when it
// is a regular file no larger than an image may be, so a device, a FIFO or a
// huge file is refused at once instead of filling memory or waiting.
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { MAX_IMAGE_BYTES, tooLargeMessage } from '../../../shared/images';
import { errorCode } from '../../../shared/errors';
import { ImageRefusedError } from './imageStore';

/** The bytes of `file`; throws ImageRefusedError saying what is wrong with it. */
export async function readImageFile(file: string): Promise<Buffer> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    throw new ImageRefusedError(code === 'ENOENT' ? `There is no file ${file}: check the path given to --image.` : `Cannot read the image ${file} (${code ?? String(error)}).`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ImageRefusedError(`${file} is not a regular file: --image takes an image file.`);
    if (stat.size > MAX_IMAGE_BYTES) throw new ImageRefusedError(tooLargeMessage(file, stat.size));
    // One byte more than the cap shows a file that grew after the stat.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_IMAGE_BYTES) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_IMAGE_BYTES) throw new ImageRefusedError(tooLargeMessage(file, length));
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
