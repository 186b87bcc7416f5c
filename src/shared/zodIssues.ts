// The one way a zod error becomes text: "field.sub: message; other: message".
// Every place that reports a failed parse (IPC input, settings, tool
// arguments, MCP config, session records) uses it, so messages read alike.
import type { z } from 'zod';

/** Each problem as `path: message` (just the message at the top level). */
export function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message));
}

/** All problems on one line, separated by "; ". */
export function issuesText(error: z.ZodError): string {
  return issueLines(error).join('; ');
}
