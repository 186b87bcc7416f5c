// Turns what a server returned into the ordinary paired result the model and
// the log receive: text passed on, binary content described rather than
// pasted, credentials redacted, size capped.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../../shared/domain';
import type { Redactor } from './redact';

/** Output beyond this many bytes is cut, as for every other tool. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

export function toToolResult(result: CallToolResult, redact: Redactor): ToolResult {
  const text = describeContent(result);
  return {
    status: result.isError === true ? 'failed' : 'completed',
    output: capOutput(redact(text)),
  };
}

function describeContent(result: CallToolResult): string {
  const blocks = (result.content ?? []).map(describeBlock);
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  if (blocks.length === 0) return '(The tool returned no content.)';
  return blocks.join('\n');
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}; not shown]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${block.mimeType ? `, ${block.mimeType}` : ''}${block.name ? `, "${block.name}"` : ''}]`;
    case 'resource': {
      const resource = block.resource;
      const bytes = 'text' in resource ? Buffer.byteLength(resource.text, 'utf8') : base64Bytes(resource.blob);
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${formatBytes(bytes)}; not shown]`;
    }
    default:
      return `[${(block as { type?: unknown }).type ?? 'unknown'} content; not shown]`;
  }
}

/** Cuts text to MAX_OUTPUT_BYTES of UTF-8 without splitting a character, and says so. */
export function capOutput(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_OUTPUT_BYTES) return text;
  let end = MAX_OUTPUT_BYTES;
  // Step back over continuation bytes (10xxxxxx) to a character boundary.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  const head = bytes.subarray(0, end).toString('utf8');
  return `${head}\n[Output cut: showing the first ${formatBytes(end)} of ${formatBytes(bytes.length)}.]`;
}

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}
