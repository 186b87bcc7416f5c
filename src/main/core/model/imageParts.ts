// The images of a person's message as each wire sends them. The bytes come
// with the request (ModelRequest.imageData); an image whose bytes are not
// there goes as a line of text saying why, so the model knows something was
// attached and the request still holds: no longer kept (removed from
// ~/.mino/images by hand, or dropped to stay within the storage cap), or not
// sent with this request at all (a summary request sends no images).
import type { HistoryItem, ImageData, ImageRef } from './types';

export const MISSING_IMAGE_TEXT =
  '[The person attached an image here that Mino no longer keeps (removed from ~/.mino/images, by hand or to stay within the storage cap), so it cannot be shown to you. If you need it, ask the person to attach it again.]';

/** For a request that carries no images at all (a summary request): the image is there, only not in this request. */
export const UNSENT_IMAGE_TEXT = '[The person attached an image here; it is not included in this request.]';

export type ImagePart = { kind: 'image'; mediaType: ImageRef['mediaType']; base64: string } | { kind: 'missing'; text: string };

/** The message's images in order, each with its bytes or, in its place, a line saying why it is not there. */
export function imageParts(images: readonly ImageRef[] | undefined, data: ImageData | undefined): ImagePart[] {
  return (images ?? []).map((image) => {
    const base64 = data?.get(image.sha256);
    if (base64) return { kind: 'image', mediaType: image.mediaType, base64 };
    return { kind: 'missing', text: data === undefined ? UNSENT_IMAGE_TEXT : MISSING_IMAGE_TEXT };
  });
}

/** An image as a data: URL, how the OpenAI wires take image input. */
export function dataUrl(part: { mediaType: string; base64: string }): string {
  return `data:${part.mediaType};base64,${part.base64}`;
}

/** The images a history item carries (only a person's message can; one sent into a running turn carries none). */
export function messageImages(item: HistoryItem): readonly ImageRef[] | undefined {
  return item.type === 'message' && 'images' in item ? item.images : undefined;
}
