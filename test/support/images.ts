// Image bytes for tests: a real 1x1 PNG (it renders, so a thumbnail can be
// seen), and the smallest headers that make each other type what it is.
export const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
export const JPEG_HEADER = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
export const GIF_HEADER = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');
export const WEBP_HEADER = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

/** A PNG of `size` bytes: the signature, then filler (the store checks the type and the size, never decodes). */
export function pngOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  PNG_1X1.copy(bytes, 0, 0, 8);
  return bytes;
}
