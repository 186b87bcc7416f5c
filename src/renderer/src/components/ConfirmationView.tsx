// What a confirmation says, shown the same way in an approval dialog and on a
// tool card: the book's `Label: "value"` lines, the preview, the diff and the warning.
import type { Confirmation } from '../../../shared/domain';
import { DiffView } from './DiffView';

/** The book's line form; the value is JSON-escaped so a quote or newline cannot pass for another line. */
export function fieldLine(label: string, value: string): string {
  return `${label}: ${JSON.stringify(value)}`;
}

export function ConfirmationFields({ confirmation }: { confirmation: Confirmation }) {
  if (confirmation.fields.length === 0) return null;
  return (
    <pre className="confirmation-fields" data-testid="confirmation-fields">
      {confirmation.fields.map((field) => fieldLine(field.label, field.value)).join('\n')}
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
