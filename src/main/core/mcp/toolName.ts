// The grammar of model-facing MCP tool names, mcp_<server>__<tool>: the one
// place that builds them and the one place that reads them back.
//
// The model API accepts ^[a-zA-Z0-9_-]{1,64}$. Within that, a name must map
// back to exactly one (server, tool) pair, so a saved session names the same
// tool after a restart and nothing can shadow another tool. That holds when
// the server part never contains "__" and neither starts nor ends with "_":
// then the first "__" after the prefix is the separator, and the rest, which
// may contain anything the API accepts, is the tool. Names that cannot be
// carried that way are refused with a reason instead of being cut or
// rewritten (an earlier version cut long names and ended them with a hash;
// such names still appear in saved sessions, see isMcpToolName).

export const MCP_TOOL_PREFIX = 'mcp_';
const SEPARATOR = '__';
/** The model API's limit on a tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;
const API_NAME = /^[a-zA-Z0-9_-]+$/;
const SERVER_PART = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;
/** The longest server name that still leaves room for a one-character tool. */
export const MAX_SERVER_NAME_LENGTH = MAX_TOOL_NAME_LENGTH - MCP_TOOL_PREFIX.length - SEPARATOR.length - 1;

export interface McpToolPair {
  server: string;
  tool: string;
}

export type McpToolNameResult = { ok: true; name: string } | { ok: false; reason: string };

/**
 * Why a configured server name cannot be used, or null when it can. Checked
 * when ~/.mino/mcp.json is read, so the person learns it there.
 */
export function serverNameProblem(server: string): string | null {
  if (server.length === 0) return 'must not be empty';
  if (server.length > MAX_SERVER_NAME_LENGTH) {
    return `must be at most ${MAX_SERVER_NAME_LENGTH} characters, so that its tools' names (${MCP_TOOL_PREFIX}<server>${SEPARATOR}<tool>) fit the model API's ${MAX_TOOL_NAME_LENGTH}`;
  }
  if (!SERVER_PART.test(server)) {
    return 'may contain only letters, digits, "-" and single "_" between them (no spaces or dots, no "__", not starting or ending with "_"), since it becomes part of tool names the model API accepts';
  }
  return null;
}

/** The name offered to the model for a server's tool, or why the tool cannot be offered. */
export function mcpToolName(server: string, tool: string): McpToolNameResult {
  const serverProblem = serverNameProblem(server);
  if (serverProblem !== null) return { ok: false, reason: `The MCP server name "${server}" ${serverProblem}.` };
  if (tool.length === 0 || !API_NAME.test(tool)) {
    return {
      ok: false,
      reason: `The tool "${tool}" of the ${server} MCP server is left out: its name must be made of letters, digits, "_" and "-" to be offered to the model.`,
    };
  }
  const name = `${MCP_TOOL_PREFIX}${server}${SEPARATOR}${tool}`;
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    return {
      ok: false,
      reason: `The tool "${tool}" of the ${server} MCP server is left out: ${name.length} characters as ${MCP_TOOL_PREFIX}${server}${SEPARATOR}${tool}, over the model API's ${MAX_TOOL_NAME_LENGTH}. A shorter server name in ~/.mino/mcp.json makes room.`,
    };
  }
  return { ok: true, name };
}

/** The (server, tool) pair a name stands for, or null when it is not a name mcpToolName builds. */
export function parseMcpToolName(name: string): McpToolPair | null {
  if (name.length > MAX_TOOL_NAME_LENGTH || !name.startsWith(MCP_TOOL_PREFIX)) return null;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const at = rest.indexOf(SEPARATOR);
  if (at < 0) return null;
  const server = rest.slice(0, at);
  const tool = rest.slice(at + SEPARATOR.length);
  if (!SERVER_PART.test(server) || tool.length === 0 || !API_NAME.test(tool)) return null;
  return { server, tool };
}

/**
 * True for any name of an MCP tool a saved session may hold: one that
 * parses, or one an earlier version built by cutting a long name and adding
 * a hash. Replay checks only this, since the server may be gone by now.
 */
export function isMcpToolName(name: string): boolean {
  return name.length <= MAX_TOOL_NAME_LENGTH && name.startsWith(MCP_TOOL_PREFIX) && name.length > MCP_TOOL_PREFIX.length && API_NAME.test(name);
}
