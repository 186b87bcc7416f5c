// What a person sees before an MCP call runs (or, in bypass, as it runs):
// which server, where the call goes, which tool, and the arguments. The
// Arguments field is a readable summary; the preview holds the complete
// arguments exactly as they will be sent, because an approval must cover
// everything that leaves this machine, not only what fits in a line.
import type { Confirmation } from '../../../shared/domain';
import type { Inspection } from '../tools/types';
import type { McpServerConfig } from './config';
import { describeDestination, transportKind } from './destination';

/** Strings longer than this are shown in the Arguments field as a preview with their size. */
export const ARGUMENT_PREVIEW_CHARS = 200;
/** The Arguments field is cut past this many characters; the preview still holds everything. */
export const ARGUMENTS_FIELD_MAX_CHARS = 4000;
/**
 * Pretty-printed arguments larger than this (UTF-8 bytes) cannot be shown for
 * approval in full, so the call is refused instead of sending unseen text.
 */
export const MAX_APPROVAL_ARGUMENTS_BYTES = 64 * 1024;

export const MCP_DENIAL_MESSAGE = 'The user did not approve this call. Do not retry without a new user request.';

export interface McpCallDescription {
  server: McpServerConfig;
  /** The model-facing name, mcp_<server>__<tool>. */
  toolName: string;
  /** The server's own name for the tool. */
  serverToolName: string;
  args: Record<string, unknown>;
}

/**
 * The inspection of an MCP call: the confirmation with the complete arguments,
 * or an invalid_arguments result when they are too large to show. Nothing is
 * sent either way; no server is contacted.
 */
export function inspectMcpCall(call: McpCallDescription): Inspection<undefined> {
  const full = fullArguments(call.args);
  const bytes = Buffer.byteLength(full, 'utf8');
  if (bytes > MAX_APPROVAL_ARGUMENTS_BYTES) {
    return {
      ok: false,
      result: {
        status: 'invalid_arguments',
        output:
          `The arguments are too large to show for approval: ${formatCount(bytes)} bytes as pretty-printed JSON, ` +
          `more than the limit of ${formatCount(MAX_APPROVAL_ARGUMENTS_BYTES)} bytes. Nothing was sent to the ${call.server.name} server. ` +
          'Send smaller arguments, for example by splitting the work into several calls.',
      },
    };
  }
  return { ok: true, state: undefined, confirmation: buildMcpConfirmation(call, full) };
}

export function buildMcpConfirmation(call: McpCallDescription, full = fullArguments(call.args)): Confirmation {
  return {
    tool: call.toolName,
    fields: [
      { label: 'Server', value: call.server.name },
      { label: 'Destination', value: describeDestination(call.server) },
      { label: 'Tool', value: call.serverToolName },
      { label: 'Arguments', value: formatArguments(call.args) },
    ],
    preview: full,
    warning: mcpWarning(call.server),
    // Arguments sent to a remote host leave this machine; a local server runs as any program of the person's.
    warningWeight: transportKind(call.server) === 'stdio' ? 'neutral' : 'strong',
  };
}

export function mcpWarning(server: McpServerConfig): string {
  return transportKind(server) === 'stdio'
    ? `Sends these arguments to the ${server.name} server, which runs with your account permissions.`
    : `Sends these arguments to the ${server.name} server, which is a remote service.`;
}

/** The arguments exactly as they will be sent, pretty-printed. */
export function fullArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}

/** Pretty-printed JSON in which long strings are previews that state their full size. */
export function formatArguments(args: Record<string, unknown>): string {
  const text = JSON.stringify(previewLongStrings(args), null, 2);
  if (text.length <= ARGUMENTS_FIELD_MAX_CHARS) return text;
  return `${text.slice(0, ARGUMENTS_FIELD_MAX_CHARS)}\n... (arguments cut: ${formatCount(text.length)} characters in all; the preview shows them in full)`;
}

function previewLongStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= ARGUMENT_PREVIEW_CHARS) return value;
    return `${value.slice(0, ARGUMENT_PREVIEW_CHARS)}... (${formatCount(value.length)} characters, ${formatCount(Buffer.byteLength(value, 'utf8'))} bytes; in full in the preview)`;
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
