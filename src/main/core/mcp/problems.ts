// What an MCP problem is about, so a session tells it once while it stands:
// a server that keeps failing to start is one problem, even though the output
// it printed (which its message quotes) differs from one attempt to the next.
// Kept apart from connection.ts so the agent can use it without loading the SDK.

/** The start of the message a server that cannot be started or reached gets (connection.ts ends it with why). */
export function startFailureSubject(serverName: string): string {
  return `MCP server "${serverName}" could not be started or reached`;
}

const START_FAILURE = /^MCP server "(?:[^"\\]|\\.)*" could not be started or reached/;

/** The part of a problem that says what it is about: for a start failure, which server; else the whole text. */
export function problemSubject(problem: string): string {
  return START_FAILURE.exec(problem)?.[0] ?? problem;
}
