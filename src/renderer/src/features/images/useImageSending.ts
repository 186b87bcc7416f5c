// How the composer's attached images travel with a message: they go with the
// next message sent (typed and sent, or a queued one sent as a turn ends), by
// id; while an image is still being attached, nothing is sent (the message
// would go without it, and the image would wait for the next one); a message
// main refuses to send gets them back in the tray, as the
// composer gives the text back. A turn that fails after its message was saved
// keeps them: Retry sends them again from the history, so the tray stays
// empty rather than offering them a second time. And how they get attached:
// pasted into the message box, or dropped on the composer (a drop there is
// the composer's alone: it never reaches the window's project-folder drop).
import type { ClipboardEvent, DragEvent } from 'react';
import type { AttachedImage } from './attachments';
import type { ImageAttachments } from './useImageAttachments';

interface Sending {
  onSend(text: string, images?: string[]): Promise<void>;
  /** Why nothing can be sent now, or null. */
  blockedReason: string | null;
}

/** Said, and sending waits, while an image is being attached. */
export const ATTACHING_REASON = 'Attaching the image: Send waits for it.';

/**
 * `props` with an onSend that carries the attached images, and gives them back when main refuses the message;
 * blocked while an image is being attached.
 */
export function useImageSending<P extends Sending>(props: P, attachments: ImageAttachments): P {
  return {
    ...props,
    blockedReason: props.blockedReason ?? (attachments.adding ? ATTACHING_REASON : null),
    onSend: async (text: string) => {
      const taken: AttachedImage[] = attachments.take();
      try {
        await props.onSend(text, taken.length > 0 ? taken.map((image) => image.sha256) : undefined);
      } catch (failure) {
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
