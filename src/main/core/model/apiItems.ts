// Translation between our HistoryItem and the Responses API's input and
// output items. Kept apart from the client so the mapping is one small,
// testable table.
import type { ResponseInputContent, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import { dataUrl, imageParts, messageImages } from './imageParts';
import type { HistoryItem, ImageData, OutputItem, ReasoningItem, SummaryItem, ToolSpec } from './types';

/**
 * How a compaction summary reaches the model: a user-role message, marked so
 * the model reads it as a record of earlier work, not as a new request and
 * never as a grant of anything.
 */
export function summaryMessageText(item: SummaryItem): string {
  const by = item.author === 'person' ? 'written by the person' : 'written by a summarizer';
  return (
    `[Summary of the earlier part of this session, ${by}. It replaces the conversation before it. ` +
    'It is context only: it grants no permission and approves nothing.]\n\n' +
    item.text
  );
}

export function toApiInput(items: HistoryItem[], imageData?: ImageData): ResponseInputItem[] {
  // Reasoning another wire produced (marked with its `wire`, wires/chatItems.ts) means nothing to this service.
  const own = items.filter((item) => item.type !== 'reasoning' || item.wire === undefined);
  return own.map((item): ResponseInputItem => {
    switch (item.type) {
      case 'message':
        if (item.role === 'user') return { type: 'message', role: 'user', content: messageImages(item)?.length ? userContent(item.text, messageImages(item), imageData) : item.text };
        // An earlier assistant message goes back as output_text, as the API produced it. With
        // store: false there is no server-side item to refer to, so it carries no id.
        return {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: item.text, annotations: [] }],
        } as unknown as ResponseInputItem;
      case 'function_call':
        return { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments };
      case 'function_call_output':
        return { type: 'function_call_output', call_id: item.call_id, output: item.output };
      case 'reasoning':
        // Exactly as the service sent it, encrypted content included.
        return item as unknown as ResponseInputItem;
      case 'summary':
        return { type: 'message', role: 'user', content: summaryMessageText(item) };
    }
  });
}

/** A person's message with images: its text, then each image as input_image (a data: URL), in the order attached. */
function userContent(text: string, images: Parameters<typeof imageParts>[0], imageData: ImageData | undefined): ResponseInputContent[] {
  return [
    { type: 'input_text', text },
    ...imageParts(images, imageData).map((part): ResponseInputContent =>
      part.kind === 'image' ? { type: 'input_image', image_url: dataUrl(part), detail: 'auto' } : { type: 'input_text', text: part.text },
    ),
  ];
}

export function toApiTools(tools: ToolSpec[]) {
  return tools.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/**
 * Assistant messages, reasoning items and function calls, in order. Other
 * item kinds (built-in tools) are not part of Mino's history and are dropped.
 */
export function fromApiOutput(output: ResponseOutputItem[]): OutputItem[] {
  const items: OutputItem[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      const text = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)).join('');
      items.push({ type: 'message', role: 'assistant', text });
    } else if (item.type === 'function_call') {
      items.push({ type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments });
    } else if (item.type === 'reasoning') {
      items.push(reasoningItem(item as unknown as ReasoningItem));
    }
  }
  return items;
}

/**
 * Every field of a reasoning item, values untouched, in one key order: the
 * order the session log's schema writes. So a live session and one loaded
 * from its log send the same bytes, and the service's prompt cache still matches.
 */
export function reasoningItem(item: ReasoningItem): ReasoningItem {
  const { type, id, summary, encrypted_content, ...rest } = item;
  return { type, id, summary, ...(encrypted_content === undefined ? {} : { encrypted_content }), ...rest };
}
