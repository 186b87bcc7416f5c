// What a confirmation says, shown the same way in an approval dialog and on a
// tool card: its labelled fields, the preview, the diff and the warnings.
// A field's value is shown as the text it is (the CLI's `Label: "value"` lines
// escape it because a terminal line has no other way to keep a value with
// quotes or line breaks in its place; here each value has its own element).
// Hidden characters are shown as ⟨U+XXXX⟩ marks throughout.
import { confirmationRiskHints, RISK_HINTS_NOTE } from '../../../shared/bashRiskHints';
import type { Confirmation } from '../../../shared/domain';
import { markHiddenCharacters } from '../../../shared/hiddenCharacters';
import { DiffView } from './DiffView';
import './ConfirmationView.css';

export function ConfirmationFields({ confirmation }: { confirmation: Pick<Confirmation, 'fields'> }) {
  if (confirmation.fields.length === 0) return null;
  return (
    <dl className="confirmation-fields" data-testid="confirmation-fields">
      {confirmation.fields.map((field, index) => (
        <div className="confirmation-field" key={index} data-field={field.label}>
          <dt>{markHiddenCharacters(field.label)}</dt>
          <dd data-testid="field-value">{markHiddenCharacters(field.value)}</dd>
        </div>
      ))}
    </dl>
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

export function ConfirmationPreview({ preview }: { preview: string }) {
  return (
    <section aria-label="Preview">
      <h4 className="confirmation-heading">Preview</h4>
      <pre className="preview" data-testid="confirmation-preview">
        {markHiddenCharacters(preview)}
      </pre>
    </section>
  );
}

/** What a bash command does that deserves a second look (sends data out, deletes, ...): hints, never a decision. */
export function RiskHints({ confirmation }: { confirmation: Confirmation }) {
  const hints = confirmationRiskHints(confirmation);
  if (hints.length === 0) return null;
  return (
    <section className="risk-hints" aria-label="Risk hints" data-testid="risk-hints">
      <h4 className="confirmation-heading">Worth a second look</h4>
      <ul>
        {hints.map((hint) => (
          <li key={hint.message} data-kind={hint.kind}>
            {markHiddenCharacters(hint.message)}
          </li>
        ))}
      </ul>
      <p className="muted small">{RISK_HINTS_NOTE}</p>
    </section>
  );
}

interface ConfirmationViewProps {
  confirmation: Confirmation;
  showWarning?: boolean;
  /**
   * Show the preview (the book's 20-line / 2 KiB summary) even when a diff
   * holds the whole change. The dialog does; a card shows the diff alone.
   */
  previewWithDiff?: boolean;
}

export function ConfirmationView({ confirmation, showWarning = true, previewWithDiff = true }: ConfirmationViewProps) {
  const showPreview = confirmation.preview !== undefined && (previewWithDiff || confirmation.diff === undefined);
  return (
    <div className="confirmation">
      <HiddenCharacterWarning confirmation={confirmation} />
      <ConfirmationFields confirmation={confirmation} />
      <RiskHints confirmation={confirmation} />
      {showPreview && <ConfirmationPreview preview={confirmation.preview as string} />}
      {confirmation.diff !== undefined && <DiffView diff={confirmation.diff} />}
      {showWarning && <ConfirmationWarning confirmation={confirmation} />}
    </div>
  );
}

/**
 * The tool's warning, as strong as what it warns of: neutral for a routine
 * ask (a change inside the project, a sandboxed command), drawn as an alarm
 * only for what deserves it (the program says which; a risk hint always does).
 */
export function ConfirmationWarning({ confirmation }: { confirmation: Confirmation }) {
  if (!confirmation.warning) return null;
  const strong = confirmation.warningWeight !== 'neutral' || confirmationRiskHints(confirmation).length > 0;
  return (
    <p className={strong ? 'warning' : 'confirmation-note'} data-testid="confirmation-warning" data-weight={strong ? 'strong' : 'neutral'}>
      {confirmation.warning}
    </p>
  );
}
