// One server tool as an ordinary Tool of kind "mcp": the agent loop, the
// policy, the confirmation and the session log treat it like any other. The
// server's annotations (readOnlyHint and the like) are its own claims and
// never change the kind, so they never relax the decision.
import { z } from 'zod';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '../tools/types';
import { prepareArgumentsCheck } from './argumentsCheck';
import { MCP_DENIAL_MESSAGE, inspectMcpCall } from './confirmation';
import type { McpConnection } from './connection';
import { redactJson } from './redact';
import { toToolResult } from './results';
import { validateMcpArguments, type McpArguments } from './validateCall';

const MAX_DESCRIPTION_CHARS = 2000;

export const McpArgumentsSchema: z.ZodType<McpArguments> = z.record(z.string(), z.unknown());

export function makeMcpTool(connection: McpConnection, definition: McpToolDefinition, name: string): Tool<McpArguments, undefined> {
  const server = connection.server;
  // What the model sees of the tool is redacted like any result: a server may put its own secret in its tool list.
  const inputSchema = redactJson(declaredSchema(definition.inputSchema), connection.redact) as Record<string, unknown>;
  const check = prepareArgumentsCheck(inputSchema);
  return {
    name,
    description: connection.redact(describe(definition, server.name)),
    kind: 'mcp',
    argsSchema: McpArgumentsSchema,
    jsonSchema: inputSchema,
    validate: (raw) => validateMcpArguments(raw, check),
    target: () => ({}),
    // Nothing live to read: the confirmation is built from the call alone, before any server is contacted.
    inspect: async (args) => inspectMcpCall({ server, toolName: name, serverToolName: definition.name, args }),
    execute: async (args, _state, ctx) => {
      const outcome = await connection.callTool(definition.name, args, ctx.signal);
      if (outcome.ok) return toToolResult(outcome.result, connection.redact);
      return { status: outcome.status, output: connection.redact(outcome.reason) };
    },
    denialMessage: MCP_DENIAL_MESSAGE,
  };
}

// "$schema" names a draft; model APIs want the schema itself.
function declaredSchema(schema: McpToolDefinition['inputSchema']): Record<string, unknown> {
  const { $schema: _draft, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

function describe(definition: McpToolDefinition, serverName: string): string {
  const origin = `(Tool "${definition.name}" of the ${serverName} MCP server.)`;
  let own = (definition.description ?? definition.title ?? '').trim();
  const room = MAX_DESCRIPTION_CHARS - origin.length - 1;
  if (own.length > room) own = `${own.slice(0, Math.max(0, room - 3))}...`;
  return own ? `${own} ${origin}` : origin;
}
