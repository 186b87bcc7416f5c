// The book's textual form of a confirmation's fields: one `Label: "value"`
// line each, the value JSON-escaped so quotes, backslashes and newlines in a
// path or fragment cannot pass for another line. The CLI prints these lines
// and the renderer's cards show the same text.
import type { Confirmation } from '../../../shared/domain';

export function formatConfirmationFields(confirmation: Pick<Confirmation, 'fields'>): string[] {
  return confirmation.fields.map((field) => `${field.label}: ${JSON.stringify(field.value)}`);
}
