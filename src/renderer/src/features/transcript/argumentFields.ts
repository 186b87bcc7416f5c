// A call's arguments as labelled text, for a card that has no confirmation to
// show (a read, or a call that never reached one): each top-level key of the
// JSON object is a label and its value is shown as text, so `{"path":"a.ts"}`
// reads `path  a.ts`, not an escaped JSON string inside another one.
import type { ConfirmationField } from '../../../../shared/domain';

/** Null when the arguments are not a JSON object: the card then shows them as they came. */
export function argumentFields(argumentsText: string): ConfirmationField[] | null {
  let value: unknown;
  try {
    value = JSON.parse(argumentsText);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.entries(value as Record<string, unknown>).map(([label, field]) => ({
    label,
    value: typeof field === 'string' ? field : JSON.stringify(field, null, 2) ?? String(field),
  }));
}
