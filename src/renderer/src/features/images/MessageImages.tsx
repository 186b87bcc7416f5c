// The thumbnails of a sent message's images in the transcript, read from
// main by id as data: URLs (the window's CSP allows no other image source),
// once per image for the window's life.
import { useEffect, useState } from 'react';
import type { ImageRef } from '../../../../shared/images';
import { api } from '../../lib/api';
import './images.css';

/** Each image read once; a transcript shows the same message again on every render. */
const read = new Map<string, Promise<string | null>>();

function imageData(sha256: string): Promise<string | null> {
  let pending = read.get(sha256);
  if (!pending) {
    pending = api.readImage({ sha256 }).then(
      (image) => image.dataUrl,
      () => null,
    );
    read.set(sha256, pending);
  }
  return pending;
}

function Thumbnail({ image, index }: { image: ImageRef; index: number }) {
  // undefined: being read; null: no longer kept.
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void imageData(image.sha256).then((data) => live && setUrl(data));
    return () => {
      live = false;
    };
  }, [image.sha256]);
  if (url === null) return <li className="image-thumbnail image-missing">Image {index + 1} is no longer kept</li>;
  return <li className="image-thumbnail">{url && <img src={url} alt={`Image ${index + 1} of this message`} />}</li>;
}

export function MessageImages({ images }: { images: readonly ImageRef[] }) {
  return (
    <ul className="image-thumbnails" aria-label="Images in this message" data-testid="message-images">
      {images.map((image, index) => (
        <Thumbnail key={`${image.sha256}-${index}`} image={image} index={index} />
      ))}
    </ul>
  );
}
