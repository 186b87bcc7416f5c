// Translation between Mino's history and Chat Completions messages. One
// response's items (reasoning, text, tool calls) become one assistant
// message; each tool result a `tool` message; a compaction summary a user
// message marked as one (apiItems.ts).
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { summaryMessageText } from '../apiItems';
import { dataUrl, imageParts, messageImages } from '../imageParts';
import type { HistoryItem, ImageData, ImageRef, ReasoningItem, ToolSpec } from '../types';

/**
 * Where a reasoning item came from, in its `wire` field: a wire sends back
 * only its own (another wire's reasoning cannot be read by this one's
 * service, and a service refuses what it does not know). Items without the
 * field came from the Responses API, the only wire before there were three.
 */
export const CHAT_REASONING = 'chat';

/** A chat reasoning item: the `reasoning_content` a server streamed, kept to send back on its assistant message. */
export function chatReasoningItem(id: string, text: string): ReasoningItem {
  return { type: 'reasoning', id, summary: [{ type: 'summary_text', text }], wire: CHAT_REASONING };
}

/** The assistant message being built; the `reasoning_content` field is not in the SDK's types (DeepSeek, vLLM, llama.cpp send it). */
interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

export function toChatMessages(instructions: string, items: HistoryItem[], imageData?: ImageData): ChatCompletionMessageParam[] {
  const messages: Array<ChatCompletionMessageParam | AssistantMessage> = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  let assistant: AssistantMessage | undefined;
  /** The assistant message an item of `kind` joins: the open one, unless that one already has what comes after it. */
  const open = (kind: 'reasoning' | 'text' | 'call'): AssistantMessage => {
    const full = assistant && (kind === 'reasoning' ? assistant.content !== null || assistant.tool_calls || assistant.reasoning_content : kind === 'text' && assistant.tool_calls);
    if (!assistant || full) {
      assistant = { role: 'assistant', content: null };
      messages.push(assistant);
    }
    return assistant;
  };
  for (const item of items) {
    switch (item.type) {
      case 'message':
        if (item.role === 'user') {
          assistant = undefined;
          messages.push({ role: 'user', content: messageImages(item)?.length ? userParts(item.text, messageImages(item) ?? [], imageData) : item.text });
        } else {
          const message = open('text');
          message.content = (message.content ?? '') + item.text;
        }
        break;
      case 'reasoning':
        if (item.wire === CHAT_REASONING) open('reasoning').reasoning_content = item.summary.map((part) => part.text).join('');
        break;
      case 'function_call':
        (open('call').tool_calls ??= []).push({ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } });
        break;
      case 'function_call_output':
        assistant = undefined;
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
        break;
      case 'summary':
        assistant = undefined;
        messages.push({ role: 'user', content: summaryMessageText(item) });
        break;
    }
  }
  return messages as ChatCompletionMessageParam[];
}

/** A person's message with images: its text, then each image as an image_url part holding a data: URL. */
function userParts(text: string, images: readonly ImageRef[], imageData: ImageData | undefined): ChatCompletionContentPart[] {
  return [
    { type: 'text', text },
    ...imageParts(images, imageData).map((part): ChatCompletionContentPart =>
      part.kind === 'image' ? { type: 'image_url', image_url: { url: dataUrl(part) } } : { type: 'text', text: part.text },
    ),
  ];
}

export function toChatTools(tools: ToolSpec[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
