// Translation between Mino's history and Anthropic Messages. The API wants
// alternating turns, so consecutive items of one role are merged into one
// message: a response's thinking, text and tool_use blocks into one assistant
// turn; the tool results that answer it (and any user text after them) into
// one user turn. Thinking blocks go back exactly as they came, signature and
// all, in their place: the API checks them.
import { summaryMessageText } from '../apiItems';
import { imageParts, messageImages } from '../imageParts';
import type { HistoryItem, ImageData, ReasoningItem, ToolSpec } from '../types';

/** The `wire` of a reasoning item holding an Anthropic thinking block (see chatItems.ts, CHAT_REASONING). */
export const ANTHROPIC_REASONING = 'anthropic';

/** A thinking or redacted_thinking block, exactly as the service sent it. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export type Block =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string }; cache_control?: CacheControl }
  | ThinkingBlock
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | { type: 'tool_result'; tool_use_id: string; content: string; cache_control?: CacheControl };

interface CacheControl {
  type: 'ephemeral';
}

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** A reasoning item that keeps `block` to send back unchanged; its text (none for a redacted block) as the summary. */
export function anthropicReasoningItem(id: string, block: ThinkingBlock): ReasoningItem {
  const summary = block.type === 'thinking' && block.thinking ? [{ type: 'summary_text' as const, text: block.thinking }] : [];
  return { type: 'reasoning', id, summary, wire: ANTHROPIC_REASONING, block };
}

/** Where a cache breakpoint goes: the prompt cache reuses everything up to the last one it has seen. */
const BREAKPOINT: CacheControl = { type: 'ephemeral' };

export function toAnthropicMessages(items: HistoryItem[], imageData?: ImageData): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  const add = (role: AnthropicMessage['role'], block: Block) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const item of items) {
    switch (item.type) {
      case 'message':
        // The API refuses an empty text block.
        if (item.text) add(item.role, { type: 'text', text: item.text });
        // A person's images follow their text, each an image block with its bytes in base64.
        for (const part of imageParts(messageImages(item), imageData)) {
          add(item.role, part.kind === 'image' ? { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.base64 } } : { type: 'text', text: part.text });
        }
        break;
      case 'reasoning':
        if (item.wire === ANTHROPIC_REASONING && isThinkingBlock(item.block)) add('assistant', item.block);
        break;
      case 'function_call':
        add('assistant', { type: 'tool_use', id: item.call_id, name: item.name, input: toolInput(item.arguments) });
        break;
      case 'function_call_output':
        add('user', { type: 'tool_result', tool_use_id: item.call_id, content: item.output });
        break;
      case 'summary':
        add('user', { type: 'text', text: summaryMessageText(item) });
        break;
    }
  }
  markLastBlock(messages);
  return messages;
}

/**
 * The last message's last block is a breakpoint, so the next request (the
 * same history and more) reads all of this one from the cache. A thinking
 * block cannot carry one; then the block before it does.
 */
function markLastBlock(messages: AnthropicMessage[]): void {
  const content = messages.at(-1)?.content ?? [];
  for (let i = content.length - 1; i >= 0; i -= 1) {
    const block = content[i]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    content[i] = { ...block, cache_control: BREAKPOINT };
    return;
  }
}

/** The system prompt as one block with a breakpoint: it and the tools before it are the same for a whole session. */
export function toAnthropicSystem(instructions: string) {
  return instructions ? [{ type: 'text' as const, text: instructions, cache_control: BREAKPOINT }] : undefined;
}

/** The tools, the last with a breakpoint (tools come before the system prompt in the cached prefix). */
export function toAnthropicTools(tools: ToolSpec[]) {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters,
    ...(index === tools.length - 1 ? { cache_control: BREAKPOINT } : {}),
  }));
}

/**
 * A tool call's arguments as the object tool_use carries. Arguments that are
 * not a JSON object (a model's malformed call, already answered with an
 * error result) go back as an empty input: the result says what was wrong.
 */
function toolInput(args: string): Record<string, unknown> {
  try {
    const value = JSON.parse(args) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {}; // ignore: the call's result already told the model its arguments were not JSON
  }
}

function isThinkingBlock(value: unknown): value is ThinkingBlock {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'thinking' || type === 'redacted_thinking';
}
