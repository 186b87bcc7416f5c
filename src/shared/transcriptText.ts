// The book's textual forms that every front end shows the same way: the
// `Label: "value"` lines of a confirmation and the title of a tool record.
import type { Confirmation, PermissionMode } from './domain';
import { markHiddenCharacters } from './hiddenCharacters';

/**
 * One field line; the value is JSON-escaped so quotes, backslashes and
 * newlines cannot pass for another line, and its hidden characters are shown
 * as ⟨U+XXXX⟩ marks (JSON leaves bidi controls, DEL and C1 raw).
 */
export function confirmationFieldLine(label: string, value: string): string {
  return `${label}: ${JSON.stringify(markHiddenCharacters(value))}`;
}

export function formatConfirmationFields(confirmation: Pick<Confirmation, 'fields'>): string[] {
  return confirmation.fields.map((field) => confirmationFieldLine(field.label, field.value));
}

/** The title of an asked call's confirmation (or of a call's card); the name may be the model's own invention. */
export function askedTitle(toolName: string): string {
  return `[Tool: ${markHiddenCharacters(toolName)}]`;
}

/** The record shown when a mode, not a person, lets a call run. */
export function allowedRecordTitle(toolName: string, mode: PermissionMode): string {
  return `[Tool: ${markHiddenCharacters(toolName)}, allowed without confirmation in ${mode} mode]`;
}
