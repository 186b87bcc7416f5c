// How the composer's attached images travel with a message: they go with the
// next message sent (typed and sent, or a queued one sent as a turn ends), by
// id; a message that is not sent, or whose turn fails, gets them back in the
// tray, as the composer gives the text back. And how they get attached:
// pasted into the message box, or dropped on the composer (a drop there is
// the composer's alone: it never reaches the window's project-folder drop).
import { useEffect, useRef, type ClipboardEvent, type DragEvent } from 'react';
import type { AttachedImage } from './attachments';
import type { ImageAttachments } from './useImageAttachments';

interface Sending {
  onSend(text: string, images?: string[]): Promise<void>;
  lastEnd?: { key: string; status: string } | null;
}

/** `props` with an onSend that carries the attached images, and gives them back when the message or its turn fails. */
export function useImageSending<P extends Sending>(props: P, attachments: ImageAttachments): P {
  const sent = useRef<AttachedImage[]>([]);
  const endKey = props.lastEnd?.key ?? null;
  useEffect(() => {
    if (endKey === null) return;
    const taken = sent.current;
    sent.current = [];
    if (props.lastEnd?.status === 'failed' && taken.length > 0) attachments.restore(taken);
    // Once per ended turn, as the composer gives back the text.
  }, [endKey]);
  return {
    ...props,
    onSend: async (text: string) => {
      const taken = attachments.take();
      sent.current = taken;
      try {
        await props.onSend(text, taken.length > 0 ? taken.map((image) => image.sha256) : undefined);
      } catch (failure) {
        sent.current = [];
        attachments.restore(taken);
        throw failure;
      }
    },
  };
}

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/** Paste and drop handlers for the composer's form: files become attachments; text pastes as text. */
export function imageInput(attachments: ImageAttachments) {
  return {
    onPaste(event: ClipboardEvent) {
      const files = Array.from(event.clipboardData?.files ?? []);
      if (files.length === 0) return;
      event.preventDefault();
      void attachments.add(files);
    },
    onDragOver(event: DragEvent) {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.stopPropagation();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDrop(event: DragEvent) {
      if (!carriesFiles(event)) return;
      // The composer's: not the browser's (it would open the file) and not the window's folder drop.
      event.preventDefault();
      event.stopPropagation();
      void attachments.add(Array.from(event.dataTransfer.files));
    },
  };
}
