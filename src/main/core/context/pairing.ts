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

/**
 * isSafeCut for every index at once, in two passes over the history instead of
 * one per index, for callers that try many cuts (a compaction over a long
 * history tries one per turn). Same answers as isSafeCut; a test holds them equal.
 */
export function safeCuts(history: readonly HistoryItem[]): (index: number) => boolean {
  const n = history.length;
  // Calls before each index whose output has not come yet (isSafeCut's `before`).
  const openBefore = new Int32Array(n + 1);
  const open = new Set<string>();
  // Outputs that would sit after a cut without their call: an output at j whose latest call
  // before it is at p breaks every cut in (p, j]; marked by a difference array.
  const brokenFrom = new Int32Array(n + 2);
  const lastCall = new Map<string, number>();
  for (let i = 0; i < n; i += 1) {
    openBefore[i] = open.size;
    const item = history[i]!;
    if (item.type === 'function_call') {
      open.add(item.call_id);
      lastCall.set(item.call_id, i);
    } else if (item.type === 'function_call_output') {
      open.delete(item.call_id);
      brokenFrom[(lastCall.get(item.call_id) ?? -1) + 1]! += 1;
      brokenFrom[i + 1]! -= 1;
    }
  }
  openBefore[n] = open.size;
  const broken = new Uint8Array(n + 1);
  let running = 0;
  for (let i = 0; i <= n; i += 1) {
    running += brokenFrom[i]!;
    broken[i] = running > 0 ? 1 : 0;
  }
  return (index) => {
    if (index <= 0 || index >= n) return true;
    return history[index - 1]!.type !== 'reasoning' && openBefore[index] === 0 && broken[index] === 0;
  };
}

/**
 * Indices where a turn starts: the person's messages (not one sent to a
 * running turn, which belongs to that turn). Cutting there keeps every turn whole.
 */
export function turnStarts(history: readonly HistoryItem[]): number[] {
  const starts: number[] = [];
  history.forEach((item, index) => {
    if (isTurnStart(item)) starts.push(index);
  });
  return starts;
}

/** The person's message that began a turn. */
export function isTurnStart(item: HistoryItem): boolean {
  return item.type === 'message' && item.role === 'user' && !('steered' in item);
}
