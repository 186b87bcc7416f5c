// Model-facing names of MCP tools: mcp_<server>__<tool>, within what the model
// API accepts (^[a-zA-Z0-9_-]{1,64}$). The same server and tool always give the
// same name, so a saved session names the same tool after a restart.
import { createHash } from 'node:crypto';

export const MCP_TOOL_PREFIX = 'mcp_';
const SEPARATOR = '__';
const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/** Replaces every character the API refuses with "_". */
export function sanitizeNamePart(part: string): string {
  const clean = part.replace(/[^a-zA-Z0-9_-]/g, '_');
  return clean.length > 0 ? clean : '_';
}

/**
 * The name offered to the model. Names that would be too long are cut and end
 * in a short hash of the full name, so two long names rarely meet.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_TOOL_PREFIX}${sanitizeNamePart(server)}${SEPARATOR}${sanitizeNamePart(tool)}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
  return `${full.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}
