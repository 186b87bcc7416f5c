// What a confirmation says, shown the same way in an approval dialog and on a
// tool card: the book's `Label: "value"` lines, the preview, the diff and the warning.
import type { Confirmation } from '../../../shared/domain';
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

export function ConfirmationView({ confirmation, showWarning = true }: { confirmation: Confirmation; showWarning?: boolean }) {
  return (
    <div className="confirmation">
      <ConfirmationFields confirmation={confirmation} />
      {confirmation.preview !== undefined && (
        <section aria-label="Preview">
          <h4 className="confirmation-heading">Preview</h4>
          <pre className="preview" tabIndex={0}>
            {confirmation.preview}
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
