// Where a server's calls go, in words a person can check: the command line of
// a local server, or the origin and path of a remote one. Never credentials:
// no env values, no headers, no URL user, password or query.
import { isStdioServer, type McpServerConfig } from './config';

export type McpTransportKind = 'stdio' | 'http';

export function transportKind(server: McpServerConfig): McpTransportKind {
  return isStdioServer(server) ? 'stdio' : 'http';
}

export function describeDestination(server: McpServerConfig): string {
  if (isStdioServer(server)) return [server.command, ...(server.args ?? [])].map(quoteForShell).join(' ');
  const url = new URL(server.url);
  return `${url.origin}${url.pathname}`;
}

// Quoted as a POSIX shell would need it, so a person reads the exact words.
function quoteForShell(word: string): string {
  if (/^[A-Za-z0-9_\-.,/:=@+%]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
