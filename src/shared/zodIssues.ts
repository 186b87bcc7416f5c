// The one way a zod error becomes text: "field.sub: message; other: message".
// Every place that reports a failed parse (IPC input, settings, tool
// arguments, MCP config, skill front matter, session records) uses it, so
// messages read alike.
import type { z } from 'zod';

export interface IssueTextOptions {
  /** Quote the path, for files a person edits by hand: `"servers.0.command": ...`. */
  quotePaths?: boolean;
}

/** One problem: `path: message`, or the message alone at the top level; unknown keys are named as such. */
export function issueText(issue: z.core.$ZodIssue, options: IssueTextOptions = {}): string {
  const path = issue.path.map(String).join('.');
  const where = path === '' ? '' : options.quotePaths ? `"${path}": ` : `${path}: `;
  if (issue.code === 'unrecognized_keys') {
    return `${where}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  }
  return `${where}${issue.message}`;
}

/** Each problem on its own. */
export function issueLines(error: z.ZodError, options: IssueTextOptions = {}): string[] {
  return error.issues.map((issue) => issueText(issue, options));
}

/** All problems on one line, separated by "; ". */
export function issuesText(error: z.ZodError, options: IssueTextOptions = {}): string {
  return issueLines(error, options).join('; ');
}
