// Pairing rules for model input: the Responses API rejects a function call
// without its output (and an output without its call), so we check first and
// give the person a clear error instead of the service's.
import type { HistoryItem } from './types';

/** call_ids of function calls with no output, then of outputs with no call, each once, in order of first appearance. */
export function findUnpairedCalls(input: HistoryItem[]): string[] {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const item of input) {
    if (item.type === 'function_call') calls.add(item.call_id);
    else if (item.type === 'function_call_output') outputs.add(item.call_id);
  }
  const unpaired: string[] = [];
  for (const id of calls) if (!outputs.has(id)) unpaired.push(id);
  for (const id of outputs) if (!calls.has(id)) unpaired.push(id);
  return unpaired;
}
