// The MCP servers a person has configured in ~/.mino/mcp.json. Mino reads this
// file and never writes it: a mistake in it is reported, entry by entry, and
// the valid entries keep working.
import { z } from 'zod';
import { minoPaths } from '../config/minoHome';
import { MiB, PrivateFileError, readPrivateText } from '../config/readPrivateFile';
import { addLogSecrets } from '../log/log';
import { serverNameProblem } from './toolName';
import { issuesText } from '../../../shared/zodIssues';

const ServerNameSchema = z.string().superRefine((name, ctx) => {
  const problem = serverNameProblem(name);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
});

const StringMapSchema = z.record(z.string(), z.string());

/** A server Mino starts as a local process and talks to over stdin/stdout. */
export const McpStdioServerConfigSchema = z.strictObject({
  name: ServerNameSchema,
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  /** Set over a minimal inherited environment; values are credentials and never shown. */
  env: StringMapSchema.optional(),
  /** Relative paths are taken from the project directory, which is also the default. */
  cwd: z.string().min(1).optional(),
});
export type McpStdioServerConfig = z.infer<typeof McpStdioServerConfigSchema>;

/** A remote server reached over Streamable HTTP. */
export const McpHttpServerConfigSchema = z.strictObject({
  name: ServerNameSchema,
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .refine((url) => !/^[a-z]+:\/\/[^/?#]*@/i.test(url), 'must not contain a user name or password; send credentials in "headers"'),
  /** Sent with every request; values are credentials and never shown. */
  headers: StringMapSchema.optional(),
});
export type McpHttpServerConfig = z.infer<typeof McpHttpServerConfigSchema>;

export const McpServerConfigSchema = z.union([McpStdioServerConfigSchema, McpHttpServerConfigSchema]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

export const McpConfigFileSchema = z.object({
  servers: z.array(z.unknown()),
});

export function isStdioServer(server: McpServerConfig): server is McpStdioServerConfig {
  return 'command' in server;
}

export interface LoadedMcpConfig {
  servers: McpServerConfig[];
  /** One line per problem, for the person: names the file and says what to fix. */
  problems: string[];
}

/** Far more than any list of servers needs. */
const MAX_MCP_CONFIG_BYTES = MiB;

/**
 * Reads ~/.mino/mcp.json. A missing file means no servers. The file holds
 * credentials, so a looser mode is tightened to 0600 (readPrivateText does).
 */
export async function loadMcpConfig(homeDir: string): Promise<LoadedMcpConfig> {
  const file = minoPaths(homeDir).mcp;
  let text: string | null;
  try {
    text = await readPrivateText(file, MAX_MCP_CONFIG_BYTES);
  } catch (error) {
    if (!(error instanceof PrivateFileError)) throw error;
    return { servers: [], problems: [`${error.message} No MCP servers are available until it can be read.`] };
  }
  if (text === null) return { servers: [], problems: [] };
  return parseMcpConfig(text, file);
}

/** Parses the text of an mcp.json file; `file` names it in problems. */
export function parseMcpConfig(text: string, file: string): LoadedMcpConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: [], problems: [`${file} is not valid JSON (${(error as Error).message}). Fix the file; no MCP servers are available until then.`] };
  }
  const top = McpConfigFileSchema.safeParse(json);
  if (!top.success) {
    return { servers: [], problems: [`${file} must be an object with a "servers" list, like {"servers": [{"name": "files", "command": "npx", "args": ["..."]}]}. No MCP servers are available until it is fixed.`] };
  }
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  top.data.servers.forEach((entry, index) => {
    const parsed = parseServerEntry(entry);
    const label = `${file}, server ${index + 1}${hasName(entry) ? ` ("${entry.name}")` : ''}`;
    if (!parsed.ok) {
      problems.push(`${label}: ${parsed.reason}. This server is skipped; the others still work.`);
      return;
    }
    if (seen.has(parsed.server.name)) {
      problems.push(`${label}: the name "${parsed.server.name}" is already used by an earlier server. Give each server its own name; this one is skipped.`);
      return;
    }
    seen.add(parsed.server.name);
    // Credentials: never in a log line, whatever a server or an error echoes back.
    addLogSecrets(Object.values(isStdioServer(parsed.server) ? (parsed.server.env ?? {}) : (parsed.server.headers ?? {})));
    servers.push(parsed.server);
  });
  return { servers, problems };
}

function parseServerEntry(entry: unknown): { ok: true; server: McpServerConfig } | { ok: false; reason: string } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { ok: false, reason: 'each server must be an object' };
  }
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  if (hasCommand === hasUrl) {
    return { ok: false, reason: 'give either "command" (a local server) or "url" (a remote server), not both and not neither' };
  }
  // Parsing against the one intended shape gives messages about that shape, not a union's.
  const result = (hasCommand ? McpStdioServerConfigSchema : McpHttpServerConfigSchema).safeParse(entry);
  if (result.success) return { ok: true, server: result.data };
  return { ok: false, reason: issuesText(result.error, { quotePaths: true }) };
}

function hasName(entry: unknown): entry is { name: string } {
  return typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string';
}
