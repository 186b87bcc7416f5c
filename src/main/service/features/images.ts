// Images in messages: the window uploads what the person pasted, dropped or
// attached as bytes (`images:add`), main checks and keeps them (core/images),
// and a message then names them by digest (`turn:send`). Thumbnails are read
// back as data: URLs (`images:read`): the window's CSP takes images only from
// its own origin and data:, and a digest is only known to whoever had the
// image (it is the SHA-256 of its bytes), so naming one is showing you have it.
import type { ImageAdded, ImageData, ImageRef } from '../../../shared/images';
import { serviceNamed } from '../../core/config/modelConfig';
import { readSettingsWithServices } from '../../core/config/settings';
import { imagesRefusal } from '../../core/images/imageSupport';
import { keepImage, readImage } from '../../core/images/imageStore';
import type { ClientId } from '../clients';

/**
 * How many images a window may add between two messages it sends. A message takes at most 8 (the window's tray
 * holds no more); this bounds a page that adds images without end, which would fill the disk and, through the
 * storage cap, push out the undo history of every session.
 */
export const MAX_UNSENT_IMAGES = 32;

/** The images each window added since it last sent a message. */
export class UnsentImages {
  private readonly byClient = new Map<ClientId, Set<string>>();

  /** Keeps an image the window sent; refusals (too large, not an image, too many unsent) say why and what to do. */
  async add(homeDir: string, client: ClientId, input: { bytes: Uint8Array; name?: string | undefined }): Promise<ImageAdded> {
    const unsent = this.byClient.get(client) ?? new Set<string>();
    if (unsent.size >= MAX_UNSENT_IMAGES) {
      throw new Error(`This window has added ${MAX_UNSENT_IMAGES} images since its last message. Send your message, or close and reopen the window, before adding more.`);
    }
    const added = await keepImage(homeDir, input.bytes, input.name ? `"${input.name}"` : 'The image');
    unsent.add(added.sha256);
    this.byClient.set(client, unsent);
    return added;
  }

  /** Once the window's message is on its way, what it added no longer waits. */
  async sending<T>(client: ClientId, sent: Promise<T>): Promise<T> {
    const result = await sent;
    this.forget(client);
    return result;
  }

  /** The window is gone (or sent a message): what it added no longer waits. */
  forget(client: ClientId): void {
    this.byClient.delete(client);
  }
}

/** A kept image as a data: URL, for a thumbnail. */
export async function readImageData(homeDir: string, sha256: string): Promise<ImageData> {
  const kept = await readImage(homeDir, sha256);
  if (!kept) throw new Error('This image is no longer kept in ~/.mino/images, so it cannot be shown.');
  return { sha256, dataUrl: `data:${kept.ref.mediaType};base64,${kept.bytes.toString('base64')}` };
}

/** The images a message names, as its record will refer to them; one that is not kept (any more) refuses the message before it is sent. */
export async function messageImageRefs(homeDir: string, ids: readonly string[] | undefined): Promise<ImageRef[] | undefined> {
  if (!ids || ids.length === 0) return undefined;
  const refs: ImageRef[] = [];
  for (const id of ids) {
    const kept = await readImage(homeDir, id);
    if (!kept) throw new Error('An image of this message is no longer kept in ~/.mino/images. Remove it, attach it again, and send.');
    refs.push(kept.ref);
  }
  return refs;
}

/**
 * Refuses a message with images to a service set to take none, before the turn starts, so the window keeps the
 * message in its box (the turn would refuse it too, but only after the box was emptied). A service that cannot be
 * named here is left to the turn, which says what is wrong with it.
 */
export async function requireImageInput(homeDir: string, env: NodeJS.ProcessEnv, chosen: string | undefined, images: readonly ImageRef[] | undefined): Promise<void> {
  if (!images || images.length === 0) return;
  const { settings, services } = await readSettingsWithServices(homeDir);
  let service;
  try {
    service = serviceNamed(chosen, { settings, services, env });
  } catch {
    // ignore: a service that cannot be named is the turn's to report, with what is wrong with it
    return;
  }
  const refused = imagesRefusal(images, { model: service.model, service: service.name, ...(service.images === undefined ? {} : { images: service.images }) });
  if (refused !== null) throw new Error(refused);
}
