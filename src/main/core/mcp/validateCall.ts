// The pure half of an MCP call: what can be checked with no server running.
// Replay of a saved session uses it for calls to servers that are not
// connected (or no longer configured).
import type { Validation } from '../tools/types';

export type McpArguments = Record<string, unknown>;

/** A JSON-schema check prepared once per tool: null when the arguments fit, else what is wrong. */
export type ArgumentsCheck = (args: McpArguments) => string | null;

/** Arguments must be a JSON object; with a prepared schema check, they must also fit the tool's input schema. */
export function validateMcpArguments(raw: unknown, check?: ArgumentsCheck): Validation<McpArguments> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'The arguments of an MCP tool must be a JSON object, like {"name": "value"}. Call again with an object.' };
  }
  const args = raw as McpArguments;
  const problem = check?.(args) ?? null;
  if (problem !== null) {
    return { ok: false, reason: `The arguments do not match the tool's input schema: ${problem}. Fix them and call again.` };
  }
  return { ok: true, args };
}
