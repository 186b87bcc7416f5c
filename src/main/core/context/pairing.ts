// Where history may be cut in two. A function call is never separated from
// its output, and a reasoning item never from the item it reasoned toward
// (the call or message that follows it in the same response), so either side
// of a cut is valid model input on its own.
import type { HistoryItem } from '../model/types';

/** True when history[0..index) and history[index..] are each fully paired. */
export function isSafeCut(history: readonly HistoryItem[], index: number): boolean {
  if (index <= 0 || index >= history.length) return true;
  if (history[index - 1]!.type === 'reasoning') return false;
  const before = new Set<string>();
  for (let i = 0; i < index; i += 1) {
    const item = history[i]!;
    if (item.type === 'function_call') before.add(item.call_id);
    else if (item.type === 'function_call_output') before.delete(item.call_id);
  }
  if (before.size > 0) return false;
  // An output after the cut whose call is before it would be just as broken.
  const callsAfter = new Set<string>();
  for (let i = index; i < history.length; i += 1) {
    const item = history[i]!;
    if (item.type === 'function_call') callsAfter.add(item.call_id);
    else if (item.type === 'function_call_output' && !callsAfter.has(item.call_id)) return false;
  }
  return true;
}

/** Indices where a turn starts: the person's messages. Cutting there keeps every turn whole. */
export function turnStarts(history: readonly HistoryItem[]): number[] {
  const starts: number[] = [];
  history.forEach((item, index) => {
    if (item.type === 'message' && item.role === 'user') starts.push(index);
  });
  return starts;
}
