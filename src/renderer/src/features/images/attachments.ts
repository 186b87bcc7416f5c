// The images attached to the message being written, as the composer holds
// them: pure rules, tested without a window. What an image is and whether it
// may be kept is main's to decide (it reads the bytes); the window only
// refuses early what main would refuse anyway (too many, too large), so a
// large file is never read into the page just to be refused.
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, TOO_MANY_IMAGES, tooLargeMessage, type ImageMediaType } from '../../../../shared/images';

export interface AttachedImage {
  /** The id main gave it: the SHA-256 of its bytes. */
  sha256: string;
  mediaType: ImageMediaType;
  /** For the thumbnail and its label. */
  name: string;
  dataUrl: string;
}

/** What of `files` may be sent to main next to the `attached` ones, and why any other is refused. */
export function admit<T extends { name: string; size: number }>(attached: number, files: readonly T[]): { admitted: T[]; refusals: string[] } {
  const admitted: T[] = [];
  const refusals: string[] = [];
  for (const file of files) {
    if (file.size > MAX_IMAGE_BYTES) refusals.push(tooLargeMessage(file.name || 'The image', file.size));
    else if (attached + admitted.length >= MAX_IMAGES_PER_MESSAGE) {
      if (!refusals.includes(TOO_MANY_IMAGES)) refusals.push(TOO_MANY_IMAGES);
    } else admitted.push(file);
  }
  return { admitted, refusals };
}

/** The same image attached twice is one attachment. */
export function withImage(attached: readonly AttachedImage[], image: AttachedImage): AttachedImage[] {
  return attached.some((kept) => kept.sha256 === image.sha256) ? [...attached] : [...attached, image];
}

/** A data: URL of `bytes` as `mediaType`, built in the page (the CSP allows data: images, not blob:). */
export function dataUrlOf(bytes: Uint8Array, mediaType: string): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${mediaType};base64,${btoa(binary)}`;
}
