// What a confirmation says, shown the same way in an approval dialog and on a
// tool card: the book's `Label: "value"` lines, the preview, the diff and the
// warnings. Hidden characters are shown as ⟨U+XXXX⟩ marks throughout.
import type { Confirmation } from '../../../shared/domain';
import { markHiddenCharacters } from '../../../shared/hiddenCharacters';
import { formatConfirmationFields } from '../../../shared/transcriptText';
import { DiffView } from './DiffView';

export function ConfirmationFields({ confirmation }: { confirmation: Confirmation }) {
  if (confirmation.fields.length === 0) return null;
  return (
    <pre className="confirmation-fields" data-testid="confirmation-fields">
      {formatConfirmationFields(confirmation).join('\n')}
    </pre>
  );
}

/** Said first, before anything it warns about, wherever the confirmation is shown. */
export function HiddenCharacterWarning({ confirmation }: { confirmation: Confirmation }) {
  if (!confirmation.hiddenCharacterWarning) return null;
  return (
    <p className="warning hidden-character-warning" data-testid="hidden-character-warning">
      {confirmation.hiddenCharacterWarning}
    </p>
  );
}

export function ConfirmationView({ confirmation, showWarning = true }: { confirmation: Confirmation; showWarning?: boolean }) {
  return (
    <div className="confirmation">
      <HiddenCharacterWarning confirmation={confirmation} />
      <ConfirmationFields confirmation={confirmation} />
      {confirmation.preview !== undefined && (
        <section aria-label="Preview">
          <h4 className="confirmation-heading">Preview</h4>
          <pre className="preview" tabIndex={0}>
            {markHiddenCharacters(confirmation.preview)}
          </pre>
        </section>
      )}
      {confirmation.diff !== undefined && <DiffView diff={confirmation.diff} />}
      {showWarning && confirmation.warning && (
        <p className="warning" data-testid="confirmation-warning">
          {confirmation.warning}
        </p>
      )}
    </div>
  );
}
