// The images attached to the message being written: a thumbnail each with a
// button to remove it, the Attach image button (a file picker for PNG, JPEG,
// WebP and GIF), and why an image was refused.
import { useRef } from 'react';
import { IMAGE_MEDIA_TYPES } from '../../../../shared/images';
import type { ImageAttachments } from './useImageAttachments';
import './images.css';

export function ImageTray({ attachments }: { attachments: ImageAttachments }) {
  const picker = useRef<HTMLInputElement>(null);
  const { images, refusals, adding } = attachments;
  return (
    <div className="image-tray" data-testid="image-tray">
      {images.length > 0 && (
        <ul className="image-thumbnails" aria-label="Attached images">
          {images.map((image, index) => (
            <li key={image.sha256} className="image-thumbnail" data-testid="attached-image">
              <img src={image.dataUrl} alt={`Attached image ${index + 1}: ${image.name}`} />
              <button type="button" className="image-remove" onClick={() => attachments.remove(image.sha256)} aria-label={`Remove ${image.name}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {refusals.length > 0 && (
        <div role="alert" className="error image-refusals" data-testid="image-refusal">
          {refusals.map((refusal) => (
            <p key={refusal}>{refusal}</p>
          ))}
        </div>
      )}
      <input
        ref={picker}
        type="file"
        hidden
        multiple
        accept={IMAGE_MEDIA_TYPES.join(',')}
        data-testid="image-picker"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared, so picking the same file again is a change too.
          event.target.value = '';
          void attachments.add(files);
        }}
      />
      <button type="button" className="image-attach" onClick={() => picker.current?.click()} disabled={adding}>
        {adding ? 'Attaching…' : 'Attach image'}
      </button>
    </div>
  );
}
