// A message the person sent to a running turn (Send now), shown where the turn
// delivered it: after the results it followed, before the model's next step.
import { markHiddenCharacters } from '../../../../shared/hiddenCharacters';

export function SteeredMessage({ text }: { text: string }) {
  return (
    <div className="message message-user message-steered" data-testid="steered-message">
      <span className="speaker">
        You <span className="muted small">· sent during the turn</span>
      </span>
      <p className="message-text">{markHiddenCharacters(text)}</p>
    </div>
  );
}
