// What a person sees before an MCP call runs (or, in bypass, as it runs):
// which server, where the call goes, which tool, and the arguments.
import type { Confirmation } from '../../../shared/domain';
import type { McpServerConfig } from './config';
import { describeDestination, transportKind } from './destination';

/** Strings longer than this are shown as a preview with their size. */
export const ARGUMENT_PREVIEW_CHARS = 200;
/** The whole Arguments field is cut past this many characters. */
export const ARGUMENTS_FIELD_MAX_CHARS = 4000;

export const MCP_DENIAL_MESSAGE = 'The user did not approve this call. Do not retry without a new user request.';

export interface McpCallDescription {
  server: McpServerConfig;
  /** The model-facing name, mcp_<server>__<tool>. */
  toolName: string;
  /** The server's own name for the tool. */
  serverToolName: string;
  args: Record<string, unknown>;
}

export function buildMcpConfirmation(call: McpCallDescription): Confirmation {
  return {
    tool: call.toolName,
    fields: [
      { label: 'Server', value: call.server.name },
      { label: 'Destination', value: describeDestination(call.server) },
      { label: 'Tool', value: call.serverToolName },
      { label: 'Arguments', value: formatArguments(call.args) },
    ],
    warning: mcpWarning(call.server),
  };
}

export function mcpWarning(server: McpServerConfig): string {
  return transportKind(server) === 'stdio'
    ? `Sends these arguments to the ${server.name} server, which runs with your account permissions.`
    : `Sends these arguments to the ${server.name} server, which is a remote service.`;
}

/** Pretty-printed JSON in which long strings are previews that state their full size. */
export function formatArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(previewLongStrings(args), null, 2);
  if (text.length <= ARGUMENTS_FIELD_MAX_CHARS) return text;
  return `${text.slice(0, ARGUMENTS_FIELD_MAX_CHARS)}\n... (arguments cut: ${formatCount(text.length)} characters in all)`;
}

function previewLongStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= ARGUMENT_PREVIEW_CHARS) return value;
    return `${value.slice(0, ARGUMENT_PREVIEW_CHARS)}... (${formatCount(value.length)} characters, ${formatCount(Buffer.byteLength(value, 'utf8'))} bytes)`;
  }
  if (Array.isArray(value)) return value.map(previewLongStrings);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, previewLongStrings(inner)]));
  }
  return value;
}

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
