// The one place a tool result becomes the text the model reads, so a live
// turn and a reloaded session send the model the same bytes.
import type { ToolResult } from '../../../shared/domain';

export function toolOutputForModel(result: ToolResult): string {
  return JSON.stringify({ status: result.status, output: result.output });
}

export const UNKNOWN_OUTCOME: ToolResult = {
  status: 'unknown',
  output:
    'The process stopped while this call was running; its outcome is unknown. It was not run again. Check the project before relying on it.',
};

export const NEVER_STARTED: ToolResult = {
  status: 'error',
  output: 'Not run: the session stopped before this call started.',
};
