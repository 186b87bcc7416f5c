// Images kept for messages: the type read from the bytes, the limits, one
// private file per content in ~/.mino/images, and their place in the storage cap.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointsDir, keepContent, pruneCheckpoints } from '../../../src/main/core/checkpoints/preImageStore';
import { sniffImageType } from '../../../src/main/core/images/imageType';
import { ImageRefusedError, imagesDir, keepImage, keptImageBytes, readImage } from '../../../src/main/core/images/imageStore';
import { readImageFile } from '../../../src/main/core/images/readImageFile';
import { MAX_IMAGE_BYTES } from '../../../src/shared/images';
import { GIF_HEADER, JPEG_HEADER, PNG_1X1, pngOfSize, WEBP_HEADER } from '../../support/images';
import { makeTempHome, type TempHome } from '../../support/tempHome';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome({ prefix: 'images' });
});
afterEach(async () => {
  await t.cleanup();
});

describe('the type of an image', () => {
  it('is read from its bytes: PNG, JPEG, GIF and WebP, and nothing else', () => {
    expect(sniffImageType(PNG_1X1)).toBe('image/png');
    expect(sniffImageType(JPEG_HEADER)).toBe('image/jpeg');
    expect(sniffImageType(GIF_HEADER)).toBe('image/gif');
    expect(sniffImageType(WEBP_HEADER)).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\x1a\x00\x00\x00WAVEfmt '))).toBeNull();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(Buffer.from([0x89, 0x50]))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });

  it('is not taken from the name: text called shot.png is refused saying what it is not', async () => {
    await expect(keepImage(t.home, Buffer.from('just some text'), 'shot.png')).rejects.toThrow(
      new ImageRefusedError('shot.png is not a PNG, JPEG, WebP or GIF image (Mino reads its type from its bytes, not its name). Save it in one of those formats and attach it again.'),
    );
    await expect(fs.readdir(imagesDir(t.home))).rejects.toThrow(/ENOENT/);
  });
});

describe('keeping an image', () => {
  it('keeps each content once, named by its SHA-256, in a private file of a private folder', async () => {
    const first = await keepImage(t.home, PNG_1X1);
    const again = await keepImage(t.home, Buffer.from(PNG_1X1));
    expect(first).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), mediaType: 'image/png', bytes: PNG_1X1.length });
    expect(again).toEqual(first);
    expect(await fs.readdir(imagesDir(t.home))).toEqual([first.sha256]);
    expect((await fs.stat(imagesDir(t.home))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(imagesDir(t.home), first.sha256))).mode & 0o777).toBe(0o600);
    expect(await readImage(t.home, first.sha256)).toEqual({ ref: { sha256: first.sha256, mediaType: 'image/png' }, bytes: PNG_1X1 });
  });

  it('refuses an image over 5 MB saying how large it is and what to do, and keeps one of exactly 5 MB', async () => {
    await expect(keepImage(t.home, pngOfSize(MAX_IMAGE_BYTES + 1), 'big.png')).rejects.toThrow(
      'big.png is 5.1 MB; an image can be at most 5 MB. Make it smaller (crop it, or save it as JPEG) and attach it again.',
    );
    await expect(keepImage(t.home, pngOfSize(7 * 1024 * 1024), 'huge.png')).rejects.toThrow(/^huge\.png is 7 MB; an image can be at most 5 MB/);
    expect((await keepImage(t.home, pngOfSize(MAX_IMAGE_BYTES))).bytes).toBe(MAX_IMAGE_BYTES);
  });

  it('reads back nothing for a kept file whose bytes no longer match its name, or an id that is not a digest', async () => {
    const { sha256 } = await keepImage(t.home, PNG_1X1);
    await fs.writeFile(path.join(imagesDir(t.home), sha256), pngOfSize(100));
    expect(await readImage(t.home, sha256)).toBeNull();
    expect(await readImage(t.home, '../config.json')).toBeNull();
  });
});

describe('an image file named on the command line', () => {
  it('is read when it is a regular file within the limit, and refused when too large, missing or not a file', async () => {
    expect(await readImageFile(await t.write('ok.png', PNG_1X1))).toEqual(PNG_1X1);
    await expect(readImageFile(await t.write('big.png', pngOfSize(MAX_IMAGE_BYTES + 1024 * 1024)))).rejects.toThrow(/big\.png is 6 MB; an image can be at most 5 MB/);
    await expect(readImageFile(t.file('absent.png'))).rejects.toThrow(/There is no file .*absent\.png: check the path given to --image\./);
    await expect(readImageFile(t.project)).rejects.toThrow(/is not a regular file: --image takes an image file\./);
    await expect(readImageFile('/dev/zero')).rejects.toThrow(/not a regular file/);
  });
});

describe('images in the storage cap', () => {
  const older = 'a'.repeat(32);
  const current = 'b'.repeat(32);

  /** Sets when a session's checkpoints or an image were last kept (seconds), so the order is the test's, not the clock's. */
  const keptAt = (file: string, seconds: number) => fs.utimes(file, seconds, seconds);

  async function keepBoth(imageAt: number, olderSessionAt: number): Promise<string> {
    await keepContent(t.home, older, 'x'.repeat(1000));
    await keepContent(t.home, current, 'y'.repeat(1000));
    const image = await keepImage(t.home, pngOfSize(3000));
    await keptAt(path.join(checkpointsDir(t.home), older), olderSessionAt);
    await keptAt(path.join(checkpointsDir(t.home), current), 3000);
    await keptAt(path.join(imagesDir(t.home), image.sha256), imageAt);
    expect(await keptImageBytes(t.home)).toBe(3000);
    return image.sha256;
  }

  it("count towards the undo history size: an older session's checkpoints go before a newer image", async () => {
    const image = await keepBoth(2000, 1000);
    // 2,000 bytes of checkpoints fit a 4,500-byte cap; with the 3,000 bytes of images they do not.
    expect(await pruneCheckpoints(t.home, 4500, current)).toEqual([older]);
    expect(await readImage(t.home, image)).not.toBeNull();
  });

  it("an older image goes before a newer session's checkpoints, so images cannot crowd out recent undo history", async () => {
    const image = await keepBoth(1000, 2000);
    expect(await pruneCheckpoints(t.home, 4500, current)).toEqual([]);
    expect(await readImage(t.home, image)).toBeNull();
    expect(await fs.readdir(path.join(checkpointsDir(t.home), older))).not.toEqual([]);
  });

  it('an image attached again is recent again, and one kept damaged is written again', async () => {
    const bytes = pngOfSize(3000);
    const { sha256 } = await keepImage(t.home, bytes);
    const file = path.join(imagesDir(t.home), sha256);
    await keptAt(file, 1000);
    await keepImage(t.home, bytes);
    expect((await fs.stat(file)).mtimeMs).toBeGreaterThan(1000 * 1000);
    await fs.writeFile(file, 'damaged');
    expect(await readImage(t.home, sha256)).toBeNull();
    await keepImage(t.home, bytes);
    expect(await readImage(t.home, sha256)).not.toBeNull();
  });
});
