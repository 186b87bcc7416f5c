// Whether a turn's images may be sent. Nothing in a model service's answers
// says whether a model reads images before one is sent, and a service that
// does not may refuse the request, or worse, drop the image and answer as if
// it had seen it. So the person says so per service: `"images": false` on a
// service in ~/.mino/config.json (services.ts). A message with images to such
// a service is refused before anything is saved or sent, so the session's
// history never holds images its model cannot take. Services left unmarked
// are sent the images; one that refuses them answers 400, which the wires
// report with the service's own words (model/errors.ts).
import type { ImageRef } from '../../../shared/images';

/** What the turn is sent through: the model, the service it is asked through (when the deps name one), and whether that takes images. */
export interface ImageInputSettings {
  model: string;
  service?: string;
  images?: boolean;
}

/** Why the turn cannot carry `images` (said to the person), or null when it can. */
export function imagesRefusal(images: readonly ImageRef[] | undefined, settings: ImageInputSettings): string | null {
  if (!images || images.length === 0 || settings.images !== false) return null;
  const service = settings.service === undefined ? 'The model service' : `The model service "${settings.service}"`;
  return (
    `${service} is set to take no images ("images": false in ~/.mino/config.json), so your message was not sent. ` +
    `Remove the ${images.length === 1 ? 'image' : 'images'} and send it again, or use a service whose model reads images.`
  );
}
