// The bytes of the images a request's history carries, for the wire: read
// from ~/.mino/images by digest, once per turn (a turn sends the same
// history many times). An image no longer kept (removed by hand) is left
// out; the wires then tell the model it is missing (model/imageParts.ts).
import type { HistoryItem, ImageData } from '../model/types';
import { messageImages } from '../model/imageParts';
import { readImage } from './imageStore';

/** Keeps what a turn has read, so each image is read once however many requests send it. */
export type ImageDataCache = Map<string, string | null>;

/** The base64 bytes of every image `items` refer to that is still kept, by digest. */
export async function imageDataFor(homeDir: string, items: readonly HistoryItem[], cache: ImageDataCache = new Map()): Promise<ImageData> {
  const data = new Map<string, string>();
  for (const item of items) {
    for (const image of messageImages(item) ?? []) {
      if (!cache.has(image.sha256)) {
        const kept = await readImage(homeDir, image.sha256);
        cache.set(image.sha256, kept ? kept.bytes.toString('base64') : null);
      }
      const base64 = cache.get(image.sha256);
      if (base64) data.set(image.sha256, base64);
    }
  }
  return data;
}
