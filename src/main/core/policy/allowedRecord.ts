// The one wording of the record shown when a mode, not a person, lets a call
// run, so every front end prints the same line.
import type { PermissionMode } from '../../../shared/domain';

export function allowedRecordTitle(toolName: string, mode: PermissionMode): string {
  return `[Tool: ${toolName}, allowed without confirmation in ${mode} mode]`;
}
