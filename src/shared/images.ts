// Images a person attaches to a message: what may be attached (the types, the
// size, how many), how a message and the session log refer to one (by the
// SHA-256 of its bytes), and the requests that carry them. The bytes are kept
// once per content in ~/.mino/images (src/main/core/images); main alone
// decides what an image is, from its bytes, never from a file name.
import { z } from 'zod';

/** The image types every wire takes as input, as their media types. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** The names a person knows them by, for messages. */
export const IMAGE_TYPE_NAMES = 'PNG, JPEG, WebP or GIF';

/** The largest image a message may carry: 5 MB, the smallest limit of the services Mino speaks to. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The most images one message may carry. */
export const MAX_IMAGES_PER_MESSAGE = 8;

/** Sizes as messages state them: "7.2 MB". */
export function megabytes(bytes: number): string {
  // Rounded up, so a size just over the limit never reads as the limit itself.
  return `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export function tooLargeMessage(name: string, bytes: number): string {
  return `${name} is ${megabytes(bytes)}; an image can be at most ${megabytes(MAX_IMAGE_BYTES)}. Make it smaller (crop it, or save it as JPEG) and attach it again.`;
}

export const TOO_MANY_IMAGES = `A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images. Remove some, or send them over two messages.`;

export function notAnImageMessage(name: string): string {
  return `${name} is not a ${IMAGE_TYPE_NAMES} image (Mino reads its type from its bytes, not its name). Save it in one of those formats and attach it again.`;
}

/** How a message and the session log refer to an image: its bytes' SHA-256 (the file's name in ~/.mino/images) and its type. */
export const ImageRefSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'An image id is the SHA-256 of its bytes, 64 lowercase hex digits.'),
  mediaType: z.enum(IMAGE_MEDIA_TYPES),
});
export type ImageRef = z.infer<typeof ImageRefSchema>;

/** The ids (digests) of the images a message carries, as the window sends them; each must have been added first. */
export const MessageImagesSchema = z
  .array(ImageRefSchema.shape.sha256, { error: 'The images of a message are a list of image ids.' })
  .max(MAX_IMAGES_PER_MESSAGE, TOO_MANY_IMAGES);

/**
 * An image the person pasted, dropped or attached, as its bytes. The type is
 * checked in main from the bytes; `name` is only for messages.
 */
export const ImageAddInputSchema = z.strictObject({
  bytes: z
    .instanceof(Uint8Array, { error: 'An image travels as its bytes (a Uint8Array).' })
    .superRefine((bytes, ctx) => {
      if (bytes.byteLength === 0) ctx.addIssue({ code: 'custom', message: 'The image is empty: attach the image file itself.' });
      else if (bytes.byteLength > MAX_IMAGE_BYTES) ctx.addIssue({ code: 'custom', message: tooLargeMessage('The image', bytes.byteLength) });
    }),
  name: z.string().max(255, 'The image name is longer than 255 characters.').optional(),
});

/** An image main kept: how to refer to it, and its size. */
export const ImageAddedSchema = ImageRefSchema.extend({ bytes: z.number().int().positive() });
export type ImageAdded = z.infer<typeof ImageAddedSchema>;

/** One kept image, for a thumbnail: a data: URL (the window's CSP allows images from data: and its own origin only). */
export const ImageReadInputSchema = z.strictObject({ sha256: ImageRefSchema.shape.sha256 });
export const ImageDataSchema = z.object({ sha256: z.string(), dataUrl: z.string() });
export type ImageData = z.infer<typeof ImageDataSchema>;
