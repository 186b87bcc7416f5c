// How much of a model service's reply Mino reads and keeps. A service is
// trusted with the answer, not with its size: without these limits one reply
// could fill memory, the session log and every later request.

/**
 * The most of an error response's body that is read (64 KiB). A service's
 * error is a JSON object of a few hundred bytes, and a proxy's or gateway's
 * error page a few kilobytes; past this the body is not read, the connection
 * is closed, and the error names the status with the first part of the body.
 */
export const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The most one answer may carry (4 MiB of UTF-8): its text, reasoning
 * (summaries and encrypted content) and tool-call arguments together. Every
 * answer is kept in memory, saved in the session log and sent back with each
 * later request, so one larger than a context window cannot be used anyway:
 * 4 MiB is about a million tokens of prose or code, as much as the largest
 * context windows hold, and about eight times what the largest output limit
 * of a current model (128k tokens) produces. Past it the stream is stopped and
 * the turn ends saying so (errors.ts, answerTooLargeError).
 */
export const ANSWER_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * The longest single event of a stream, in characters, for an answer limit
 * and a request of `requestChars`: the parser holds an event whole until it
 * ends, so this bounds its memory. A legitimate event is at most the finished
 * response: the whole answer written as JSON (escaping makes text and code
 * longer; four times leaves room) and the instructions and tools the service
 * echoes, never longer than the request itself.
 */
export function eventLimitChars(answerLimitBytes: number, requestChars: number): number {
  return 4 * answerLimitBytes + requestChars;
}

/** "64 KiB", "4 MiB", "1.5 MiB": a limit as a person reads it. */
export function sizeText(bytes: number): string {
  const KiB = 1024;
  const MiB = KiB * KiB;
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= KiB) return `${Math.round((bytes / KiB) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
