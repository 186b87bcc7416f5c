// Every way a model request can fail becomes one ModelError whose message
// tells the person what happened and what to do next.
import { ANSWER_LIMIT_BYTES, sizeText } from './limits';
import {
  MalformedEventError,
  NotAStreamError,
  OversizedEventError,
  ServiceConnectionError,
  ServiceEventError,
  ServiceRedirectError,
  ServiceStatusError,
  ServiceTimeoutError,
} from './serviceErrors';
import { ModelError } from './types';

const SEND_AGAIN = 'then send your message again.';
/** What a base URL should speak when the request does not say (RequestContext.api). */
const RESPONSES_API = 'the Responses API';

export function abortedError(cause?: unknown): ModelError {
  return new ModelError('aborted', 'The request to the model was stopped.', { cause });
}

export function droppedStreamError(cause?: unknown): ModelError {
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return new ModelError(
    'stream',
    `The connection to the model service closed before the answer was complete${detail}. Check your network connection, ${SEND_AGAIN}`,
    { cause },
  );
}

/** The stream went quiet for longer than the idle timeout; the request was stopped. */
export function stoppedSendingError(baseURL: string, idleMs: number): ModelError {
  const wait = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} seconds` : `${idleMs} ms`;
  return new ModelError(
    'stream',
    `The model service at ${baseURL} stopped sending: nothing arrived for ${wait}, so Mino stopped waiting. Send your message again; if it keeps happening, check the service, or raise "Stream idle timeout" in Settings for a slow one.`,
  );
}

/** A 2xx answer that is not a stream of events: a web page (the base URL points at a site, not the API) or a document. */
export function notAStreamError(baseURL: string, status: number, contentType: string, api = RESPONSES_API): ModelError {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const what = type === 'text/html' ? 'an HTML page' : type ? `a ${type} document` : 'a body without a content type';
  return new ModelError(
    'http',
    `The model service at ${baseURL} answered with ${what} (HTTP ${status}) instead of a stream of events, so it does not seem to speak ${api} there. Check the base URL in Settings (it usually ends in /v1), then send your message again.`,
    { status },
  );
}

/**
 * The answer passed the most Mino accepts in one response (limits.ts,
 * ANSWER_LIMIT_BYTES); the stream was stopped there. Nothing of the answer
 * was kept, so nothing of it is saved or sent back.
 */
export function answerTooLargeError(limitBytes: number): ModelError {
  return new ModelError(
    'answer_too_large',
    `The model's answer was cut at ${sizeText(limitBytes)}: text, reasoning and tool-call arguments together may not exceed that in one response, ` +
      'so Mino stopped reading it, and nothing of it was saved or run. Ask for a smaller step (one file or one part at a time), then send your message again.',
  );
}

/** A 3xx: named with where it points, and what to set instead; never followed. */
function redirectError(error: ServiceRedirectError, baseURL: string): ModelError {
  const { status, target } = error;
  if (!target) {
    return new ModelError(
      'http',
      `The model service at ${baseURL} answered ${status} (a redirect) without saying where to; Mino does not follow redirects. Check the base URL in Settings, ${SEND_AGAIN}`,
      { status, cause: error },
    );
  }
  // The target is named by its host and path: a query string may carry a token.
  const base = target.pathname.endsWith('/responses') ? `${target.origin}${target.pathname.slice(0, -'/responses'.length)}` : undefined;
  const advice = base ? `set the base URL in Settings to ${base}` : `set the base URL in Settings to its address on ${target.host}`;
  return new ModelError(
    'http',
    `The model service at ${baseURL} answered ${status} (a redirect) to ${target.host}; Mino does not follow redirects, so nothing was sent there. ` +
      `If that is your model service, ${advice}, ${SEND_AGAIN}`,
    { status, cause: error },
  );
}

/** The service's own words, without the "500 " prefix. */
function serviceMessage(error: ServiceStatusError | ServiceEventError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

const CONTEXT_LENGTH_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_LENGTH_WORDS = /context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long/i;
const REASONING_WORDS = /reasoning|encrypted_content|\binclude\b|effort|thinking|budget_tokens/i;
/**
 * How servers refuse tools for a model without tool calling: Ollama ("does
 * not support tools"), vLLM ("auto" tool choice requires
 * --enable-auto-tool-choice), llama.cpp ("tools param requires --jinja"),
 * gateways ("tool use is not supported", "No endpoints found that support tool use").
 */
const TOOLS_REFUSED = /(does not|doesn't|do not) support tools|tools? (use |calling )?(is |are )?not supported|support tool use|enable-auto-tool-choice|tools param requires/i;

/** The service's words for "this request is larger than the model's context window". */
export function isContextLengthRefusal(code: string | null | undefined, message: string | null | undefined): boolean {
  return (code != null && CONTEXT_LENGTH_CODES.has(code)) || (message != null && CONTEXT_LENGTH_WORDS.test(message));
}

export function contextLengthError(detail: string, cause?: unknown): ModelError {
  return new ModelError(
    'context_length',
    `The model service refused the request because it is longer than the model's context window (${detail}). ` +
      'Compact the session, or set a smaller context window in Settings so Mino compacts earlier, then send your message again.',
    { cause },
  );
}

/** Request facts an error message can name: which fields Mino sent that the person can turn off. */
export interface RequestContext {
  baseURL: string;
  /** The wire protocol's name as a sentence says it ("the Chat Completions API"); default the Responses API. */
  api?: string;
  aborted: boolean;
  timeoutMs?: number;
  /** The request carried `include` and `reasoning` (the `reasoning` setting is on or auto). */
  sentReasoning?: boolean;
  /** The request carried `reasoning.effort` (the reasoning-effort setting is chosen). */
  sentEffort?: boolean;
  /** The most one answer may carry; default ANSWER_LIMIT_BYTES. */
  answerLimitBytes?: number;
  /** The request offered tools, so a refusal of them means the model cannot call tools. */
  sentTools?: boolean;
}

/** Maps an error thrown while connecting or while reading the stream (serviceErrors.ts's, or any other). */
export function toModelError(error: unknown, ctx: RequestContext): ModelError {
  if (error instanceof ModelError) return error;
  if (ctx.aborted) return abortedError(error);
  const api = ctx.api ?? RESPONSES_API;
  if (error instanceof NotAStreamError) return notAStreamError(ctx.baseURL, error.status, error.contentType, api);
  if (error instanceof MalformedEventError) {
    return new ModelError(
      'stream',
      `The model service at ${ctx.baseURL} sent a stream Mino could not read (an event that is not valid JSON), so the answer was dropped. If it keeps happening, check that the base URL in Settings serves ${api}, then send your message again.`,
      { cause: error },
    );
  }
  if (error instanceof OversizedEventError) {
    const limit = sizeText(ctx.answerLimitBytes ?? ANSWER_LIMIT_BYTES);
    return new ModelError(
      'answer_too_large',
      `The model service at ${ctx.baseURL} sent a single event of more than ${charactersText(error.limitChars)}, more than any answer Mino accepts (${limit}), ` +
        `so Mino stopped reading it, and nothing of it was saved or run. Ask for a smaller step; if it keeps happening, check that the base URL in Settings serves ${api}, ${SEND_AGAIN}`,
      { cause: error },
    );
  }
  if (error instanceof ServiceTimeoutError) {
    const within = ctx.timeoutMs ? ` within ${Math.round(ctx.timeoutMs / 1000)} seconds` : ' in time';
    return new ModelError(
      'http',
      `The model service at ${ctx.baseURL} did not answer${within}. Check the base URL in Settings and your network connection, ${SEND_AGAIN}`,
      { cause: error },
    );
  }
  if (error instanceof ServiceConnectionError) {
    const cause = error.cause instanceof Error && error.cause.message ? `: ${error.cause.message}` : '';
    return new ModelError(
      'http',
      `Could not reach the model service at ${ctx.baseURL}${cause}. Check the base URL in Settings and your network connection, ${SEND_AGAIN}`,
      { cause: error },
    );
  }
  if (error instanceof ServiceRedirectError) return redirectError(error, ctx.baseURL);
  if (error instanceof ServiceStatusError) return statusModelError(error, ctx);
  if (error instanceof ServiceEventError) {
    const text = serviceMessage(error);
    const code = (error.error as { code?: unknown } | null)?.code;
    // A service may refuse an overlong prompt inside the stream too.
    if (isContextLengthRefusal(typeof code === 'string' ? code : undefined, text)) return contextLengthError(text, error);
    // An `error` event inside an otherwise good stream.
    return new ModelError('stream', `The model service reported an error while answering: ${text}. ${capitalize(SEND_AGAIN)}`, { cause: error });
  }
  return droppedStreamError(error);
}

/** A refusal with an HTTP status, named by what the person can do about it. */
function statusModelError(error: ServiceStatusError, ctx: RequestContext): ModelError {
  const status = error.status;
  const text = serviceMessage(error);
  if (status === 400 && isContextLengthRefusal(error.code, text)) return contextLengthError(`HTTP 400: ${text}`, error);
  if (status >= 400 && status < 500 && ctx.sentTools && TOOLS_REFUSED.test(text)) {
    return new ModelError(
      'http',
      `The model does not support tool calling (HTTP ${status}: ${text}), and Mino works through tools. ` +
        `Choose a model that supports tool calling (or turn tool calling on in your server), ${SEND_AGAIN}`,
      { status, cause: error },
    );
  }
  if (status === 400 && ctx.sentReasoning && (REASONING_WORDS.test(text) || REASONING_WORDS.test(error.param ?? ''))) {
    const effort = ctx.sentEffort ? ' (or clear "Reasoning effort")' : '';
    return new ModelError(
      'reasoning_unsupported',
      `The model service refused the reasoning fields Mino sent (HTTP 400: ${text}). ` +
        `Set "Reasoning" to off${effort} in Settings ("reasoning": "off" in ~/.mino/config.json), then send your message again.`,
      { status, cause: error },
    );
  }
  const message =
    status === 401 || status === 403
      ? `The model service refused the API key (HTTP ${status}: ${text}). Check the API key in Settings, ${SEND_AGAIN}`
      : status === 404
        ? notFoundMessage(error.code, text, ctx)
        : status === 429
          ? `The model service is limiting requests (HTTP 429: ${text}). Wait a moment, ${SEND_AGAIN}`
          : status >= 500
            ? `The model service had a problem of its own (HTTP ${status}: ${text}). Wait a moment, ${SEND_AGAIN}`
            : `The model service refused the request (HTTP ${status}: ${text}). Check the base URL and the model name in Settings, ${SEND_AGAIN}`;
  return new ModelError('http', message, { status, cause: error });
}

/**
 * How services say the model is what they lack: OpenAI ("The model `x` does
 * not exist", code model_not_found), Anthropic ("model: x"), Ollama ("model
 * "x" not found, try pulling it first"), gateways ("unknown model", "no such model").
 */
const MODEL_NOT_FOUND = /\bmodel\b[^.]*\b(not found|does not exist|doesn't exist|is not available)|^model:|unknown model|no such model/i;

/** A 404 names the model when the service says the model is what it lacks, else the address. */
function notFoundMessage(code: string | undefined, text: string, ctx: RequestContext): string {
  if (code === 'model_not_found' || MODEL_NOT_FOUND.test(text)) return `The model service does not know the model (HTTP 404: ${text}). Check the model name in Settings, ${SEND_AGAIN}`;
  return `The model service returned HTTP 404: ${text}. Check the base URL and the model name in Settings (the base URL should lead to ${ctx.api ?? RESPONSES_API}), ${SEND_AGAIN}`;
}

export function failedResponseError(detail: { code?: string | null; message?: string | null } | null | undefined): ModelError {
  if (isContextLengthRefusal(detail?.code, detail?.message)) return contextLengthError(detail?.message || detail?.code || 'no detail given');
  const what = detail?.message ? `: ${detail.message}${detail.code ? ` (${detail.code})` : ''}` : '';
  return new ModelError('failed', `The model could not finish its answer${what}. ${capitalize(SEND_AGAIN)}`);
}

export function incompleteResponseError(reason: string | null | undefined): ModelError {
  const advice =
    reason === 'max_output_tokens'
      ? 'it reached its output limit. Ask for a smaller step, or ask it to continue.'
      : reason === 'content_filter'
        ? 'the service filtered its content. Rephrase your request, then send it again.'
        : `reason: ${reason ?? 'not given'}. Send your message again.`;
  return new ModelError('incomplete', `The model stopped before finishing its answer: ${advice}`);
}

/** "17 million characters", "65536 characters". */
function charactersText(count: number): string {
  return count >= 1_000_000 ? `${Math.round(count / 1_000_000)} million characters` : `${count} characters`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
