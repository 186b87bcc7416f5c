// Translation between our HistoryItem and the Responses API's input and
// output items. Kept apart from the client so the mapping is one small,
// testable table.
import type { ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { HistoryItem, ToolSpec } from './types';

export function toApiInput(items: HistoryItem[]): ResponseInputItem[] {
  return items.map((item): ResponseInputItem => {
    switch (item.type) {
      case 'message':
        if (item.role === 'user') return { type: 'message', role: 'user', content: item.text };
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
    }
  });
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
 * Assistant messages and function calls, in order. Other item kinds
 * (reasoning, built-in tools) are not part of Mino's history and are dropped.
 */
export function fromApiOutput(output: ResponseOutputItem[]): HistoryItem[] {
  const items: HistoryItem[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      const text = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal)).join('');
      items.push({ type: 'message', role: 'assistant', text });
    } else if (item.type === 'function_call') {
      items.push({ type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments });
    }
  }
  return items;
}
