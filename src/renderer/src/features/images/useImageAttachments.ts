// The composer's attached images: pasted, dropped or picked files go to main
// as bytes (`images:add`), which checks and keeps them and answers with their
// id; the message then carries the ids. They stay attached until a message is
// sent with them, and come back if that message is not sent or its turn fails.
import { useRef, useState } from 'react';
import { api, errorMessage } from '../../lib/api';
import { admit, dataUrlOf, withImage, type AttachedImage } from './attachments';

export interface ImageAttachments {
  images: AttachedImage[];
  /** Why the last files could not all be attached, one line each; empty when they were. */
  refusals: string[];
  /** Files are being sent to main. */
  adding: boolean;
  add(files: readonly File[]): Promise<void>;
  remove(sha256: string): void;
  /** The images for the message being sent; the tray empties (`restore` puts them back). */
  take(): AttachedImage[];
  restore(images: readonly AttachedImage[]): void;
}

export function useImageAttachments(): ImageAttachments {
  const [images, setImages] = useState<AttachedImage[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  // The count at the moment of each add, so two quick pastes cannot both pass the limit.
  const count = useRef(0);
  count.current = images.length;

  async function add(files: readonly File[]) {
    const { admitted, refusals: early } = admit(count.current, files);
    const problems = [...early];
    setAdding(true);
    try {
      for (const file of admitted) {
        try {
          const bytes = new Uint8Array(await file.arrayBuffer());
          const kept = await api.addImage({ bytes, ...(file.name ? { name: file.name } : {}) });
          const image = { sha256: kept.sha256, mediaType: kept.mediaType, name: file.name || 'Pasted image', dataUrl: dataUrlOf(bytes, kept.mediaType) };
          setImages((current) => withImage(current, image));
        } catch (failure) {
          problems.push(errorMessage(failure));
        }
      }
    } finally {
      setAdding(false);
      setRefusals(problems);
    }
  }

  return {
    images,
    refusals,
    adding,
    add,
    remove: (sha256) => setImages((current) => current.filter((image) => image.sha256 !== sha256)),
    take: () => {
      const taken = images;
      setImages([]);
      setRefusals([]);
      return taken;
    },
    restore: (back) => setImages((current) => back.reduce(withImage, current)),
  };
}
