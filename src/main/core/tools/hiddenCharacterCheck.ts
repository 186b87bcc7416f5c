// Every confirmation passes here before anyone sees it: when what it shows
// holds invisible or bidirectional characters, it carries a warning saying
// which and where, so a person is told that the displayed text (in which the
// front ends mark each one) may differ from what will be written or sent.
import type { Confirmation } from '../../../shared/domain';
import { hiddenCharacterWarning } from '../../../shared/hiddenCharacters';

export function withHiddenCharacterWarning(confirmation: Confirmation): Confirmation {
  const parts: Array<readonly [string, string]> = confirmation.fields.map((field) => [field.label, field.value] as const);
  if (confirmation.preview !== undefined) parts.push(['the preview', confirmation.preview]);
  if (confirmation.diff !== undefined) parts.push(['the changes', confirmation.diff]);
  const warning = hiddenCharacterWarning(parts);
  return warning === null ? confirmation : { ...confirmation, hiddenCharacterWarning: warning };
}
