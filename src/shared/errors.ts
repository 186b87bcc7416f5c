// The one way to read a caught value's system error code (ENOENT, EEXIST,
// ...). A caught value may be anything, so it assumes no Error. (Its text for a
// log line or a message is errorText in core/log/log.ts.)
//
// The words for failure text in result unions, used everywhere:
// - `error`: a result that carries a value, `{ ok: true, value } | { ok: false, error }`
//   (IpcResult, settings), whose failure a person reads;
// - `reason`: a check or validation, `{ ok: true, ... } | { ok: false, reason }`
//   (arguments, paths, projects, MCP names and config, session lines).
// Zod errors become text only through zodIssues.ts.

/** The error code of a Node system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
