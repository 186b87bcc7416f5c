// How big an answer is, counted while it streams, so that one larger than
// Mino accepts is stopped before it is held, saved or sent back.
import { answerTooLargeError } from './errors';

/**
 * Holds one answer to the limit (limits.ts, ANSWER_LIMIT_BYTES) in each of
 * the three forms it arrives in: the deltas streamed (text, reasoning,
 * arguments: what is passed on as it arrives), the finished items (kept until
 * the response completes) and the completed response's output (what is
 * returned, saved and sent back). The first that passes the limit fails the
 * stream with answerTooLargeError, which stops reading it.
 */
export class AnswerMeter {
  private streamed = 0;
  private finished = 0;

  constructor(private readonly limitBytes: number) {}

  /** Counts an event before anything of it is passed on or kept; throws once the answer passes the limit. */
  take(event: unknown): void {
    // The event is the service's JSON, whatever its type says: read defensively. Any `*.delta` event
    // counts, known or not: each is a piece of the answer the service is writing.
    const { type, delta, item, response } = (event ?? {}) as { type?: unknown; delta?: unknown; item?: unknown; response?: { output?: unknown } | null };
    if (typeof type === 'string' && type.endsWith('.delta') && typeof delta === 'string') this.streamed += Buffer.byteLength(delta);
    else if (type === 'response.output_item.done') this.finished += stringBytes(item);
    else if (type === 'response.completed' && stringBytes(response?.output) > this.limitBytes) throw answerTooLargeError(this.limitBytes);
    if (this.streamed > this.limitBytes || this.finished > this.limitBytes) throw answerTooLargeError(this.limitBytes);
  }

  /**
   * Counts one streamed piece of the answer (text, reasoning, a fragment of
   * arguments, a signature) from a wire whose events are not the Responses
   * API's (wires/chat.ts, wires/anthropic.ts), before it is passed on or kept.
   */
  takeText(piece: string): void {
    this.streamed += Buffer.byteLength(piece);
    if (this.streamed > this.limitBytes) throw answerTooLargeError(this.limitBytes);
  }
}

/**
 * UTF-8 bytes of every string in a parsed JSON value: an item's text,
 * reasoning (summary and encrypted content) and arguments, and its few short
 * fields (ids, names). Walked without recursion, however deep the value.
 */
function stringBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') bytes += Buffer.byteLength(next);
    // One push per element: an array of a million elements spread into push() would overflow the stack.
    else if (Array.isArray(next)) for (const element of next) pending.push(element);
    else if (next !== null && typeof next === 'object') for (const field of Object.values(next)) pending.push(field);
  }
  return bytes;
}
