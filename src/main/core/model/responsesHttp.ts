// One streamed Responses API request: a POST over node:http or node:https,
// answered with the server-sent events of the response, parsed as they
// arrive. (Whether to send it again is retry.ts's to decide.)
//
// Why not the openai SDK's client, which Mino used before: loading it makes
// Node load its fetch implementation (undici) and web streams, and the SDK
// itself was over half of the CLI bundle; together about a fifth of a
// one-turn `mino exec` (measured by `npm run bench:startup`), for one POST and
// its event stream. Its types are still the reference for the events.
// Node's own fetch is not used either: see the note on start-up in the README.
//
// What the SDK did and this keeps: the headers it sent that a service reads
// (the key, the organization and project), the timeout for the headers, its
// error texts ("500 <service message>") and fields, and its reading of the
// stream (an `error` event or an event with an `error` field fails it; `[DONE]`
// ends it; data that is not JSON is an error, not a skipped event).
//
// What it does not do, on purpose: follow a redirect (the key would go to
// wherever the service points, unseen; a 3xx fails as a ServiceRedirectError
// naming the target), read an error body or an event past a limit (limits.ts),
// or use a proxy. HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY are not read:
// the request goes straight to the base URL's host, as node:http does by
// default. Proxy support is not implemented yet; docs/user-guide.md says so.
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { ERROR_BODY_LIMIT_BYTES, sizeText } from './limits';

export interface EventsRequest {
  url: URL;
  apiKey: string;
  /** Sent as OpenAI-Organization and OpenAI-Project when set. */
  organization?: string;
  project?: string;
  /** The JSON text of the request. */
  body: string;
  signal: AbortSignal;
  /** Longest wait for the response's headers. */
  timeoutMs: number;
  /** Longest single event, in characters (limits.ts, eventLimitChars); a longer one fails the stream with OversizedEventError. Default 16 Mi. */
  maxEventChars?: number;
}

export interface ServiceEvent {
  /** The SSE event name, if the service gave one. */
  name?: string;
  data: unknown;
}

export interface EventsResponse {
  status: number;
  contentType: string;
  /** The events, parsed; fails with ServiceEventError, MalformedEventError, OversizedEventError, or the connection's error. */
  events: AsyncIterable<ServiceEvent>;
  /** Stops reading; for a response that turns out not to be a stream. */
  cancel(): void;
}

/** The service answered with an error status. `error` is the body's `error` object, if any; `headers` say when to retry (retry.ts). */
export class ServiceStatusError extends Error {
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown> | undefined,
    bodyText: string,
    readonly headers: http.IncomingHttpHeaders = {},
  ) {
    super(statusMessage(status, error, bodyText));
    this.name = 'ServiceStatusError';
    this.code = typeof error?.code === 'string' ? error.code : undefined;
    this.param = typeof error?.param === 'string' ? error.param : undefined;
  }
}

/**
 * The service answered with a redirect (3xx), which is not followed: the
 * request carries the API key, and a base URL that moved is for the person to
 * change. `target` is the Location, resolved against the request's URL; none
 * when the service gave none (or one that is not a URL).
 */
export class ServiceRedirectError extends ServiceStatusError {
  constructor(
    status: number,
    readonly target: URL | undefined,
    headers: http.IncomingHttpHeaders = {},
  ) {
    super(status, undefined, target ? `redirect to ${target.origin}${target.pathname}` : 'redirect without a location', headers);
    this.name = 'ServiceRedirectError';
  }
}

/** An error reported inside the event stream (an `error` event, or an event with an `error` field). */
export class ServiceEventError extends Error {
  constructor(readonly error: unknown) {
    const message = (error as { message?: unknown } | null)?.message;
    super(typeof message === 'string' && message ? message : JSON.stringify(error));
    this.name = 'ServiceEventError';
  }
}

/** The service could not be reached, or the connection failed before the headers. `cause` is the system's error. */
export class ServiceConnectionError extends Error {
  constructor(options: { cause: unknown }) {
    super('Connection error.', options);
    this.name = 'ServiceConnectionError';
  }
}

/** No headers arrived within the timeout. */
export class ServiceTimeoutError extends Error {
  constructor() {
    super('Request timed out.');
    this.name = 'ServiceTimeoutError';
  }
}

/** An event whose data is not JSON. */
export class MalformedEventError extends SyntaxError {
  constructor() {
    super('Error reading response: malformed server-sent event JSON.');
    this.name = 'MalformedEventError';
  }
}

/** One event longer than the limit (EventsRequest.maxEventChars): the stream is stopped rather than held in memory. */
export class OversizedEventError extends Error {
  constructor(readonly limitChars: number) {
    super(`Error reading response: an event longer than ${limitChars} characters.`);
    this.name = 'OversizedEventError';
  }
}

const DEFAULT_EVENT_LIMIT_CHARS = 16 * 1024 * 1024;

/** "500 database on fire", as the SDK wrote it, so the service's words can be told from the status. */
function statusMessage(status: number, error: Record<string, unknown> | undefined, bodyText: string): string {
  const said = typeof error?.message === 'string' ? error.message : error ? JSON.stringify(error) : bodyText;
  return said ? `${status} ${said}` : `${status} status code (no body)`;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Sends the request; resolves with the events of a 2xx answer, fails with a
 * ServiceRedirectError for a 3xx and a ServiceStatusError for any other.
 */
export async function postForEvents(request: EventsRequest): Promise<EventsResponse> {
  const res = await send(request);
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    // Its body is a page for browsers: nothing in it is read.
    res.destroy();
    throw new ServiceRedirectError(status, redirectTarget(request.url, res.headers.location), res.headers);
  }
  if (status < 200 || status >= 300) throw await statusError(res, status);
  return {
    status,
    contentType: String(res.headers['content-type'] ?? ''),
    events: readEvents(decoded(res), request.maxEventChars ?? DEFAULT_EVENT_LIMIT_CHARS),
    cancel: () => res.destroy(),
  };
}

function redirectTarget(from: URL, location: string | undefined): URL | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

/**
 * The error for a status that is not 2xx or 3xx, from at most
 * ERROR_BODY_LIMIT_BYTES of its body. A body cut there is named by its
 * beginning (the service's error object, when it still parses, says more).
 */
async function statusError(res: http.IncomingMessage, status: number): Promise<ServiceStatusError> {
  let read: { text: string; cut: boolean };
  try {
    read = await readLimited(decoded(res), ERROR_BODY_LIMIT_BYTES);
  } catch (error) {
    read = { text: error instanceof Error ? error.message : String(error), cut: false };
  }
  const error = errorObject(read.text);
  const text = read.cut && !error ? `${excerpt(read.text)}… (a longer body, not read past the first ${sizeText(ERROR_BODY_LIMIT_BYTES)})` : read.text;
  return new ServiceStatusError(status, error, text, res.headers);
}

/** The first few hundred characters, on one line: enough to recognise a page or an error object. */
function excerpt(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

function send(request: EventsRequest): Promise<http.IncomingMessage> {
  const { url, signal } = request;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  const headers: Record<string, string> = {
    authorization: `Bearer ${request.apiKey}`,
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'user-agent': 'Mino',
    'content-length': String(Buffer.byteLength(request.body)),
    ...(request.organization ? { 'openai-organization': request.organization } : {}),
    ...(request.project ? { 'openai-project': request.project } : {}),
  };
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, { method: 'POST', headers });
    let answered = false;
    const timer = setTimeout(() => req.destroy(new ServiceTimeoutError()), request.timeoutMs);
    const onAbort = () => {
      const reason = abortReason(signal);
      // Before the headers, the promise fails; after, the body's reader does.
      req.destroy(reason instanceof Error ? reason : undefined);
      reject(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    req.once('error', (error) => {
      clearTimeout(timer);
      if (answered) return;
      signal.removeEventListener('abort', onAbort);
      reject(error instanceof ServiceTimeoutError || signal.aborted ? error : new ServiceConnectionError({ cause: error }));
    });
    req.once('response', (res) => {
      answered = true;
      clearTimeout(timer);
      res.once('close', () => signal.removeEventListener('abort', onAbort));
      resolve(res);
    });
    req.end(request.body);
  });
}

/** Undoes a content encoding the server applied anyway (none is asked for), flushing as data arrives so a stream stays a stream. */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip(flush)
      : encoding === 'deflate'
        ? zlib.createInflate(flush)
        : encoding === 'br'
          ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : undefined;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  // Stopping the reader stops the download too.
  decoder.on('close', () => res.destroy());
  return res.pipe(decoder);
}

export async function* readEvents(body: Readable, maxEventChars: number): AsyncGenerator<ServiceEvent> {
  const arrived: EventSourceMessage[] = [];
  let oversized = false;
  const parser = createParser({
    onEvent: (message) => arrived.push(message),
    // The parser holds an unfinished event whole; past the limit it stops and reports it here.
    onError: (error: ParseError) => {
      if (error.type === 'max-buffer-size-exceeded') oversized = true;
    },
    maxBufferSize: maxEventChars,
  });
  body.setEncoding('utf8');
  try {
    for await (const chunk of body) {
      parser.feed(chunk as string);
      if (oversized) throw new OversizedEventError(maxEventChars);
      while (arrived.length > 0) {
        const message = arrived.shift()!;
        if (message.data === '[DONE]') return;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          throw new MalformedEventError();
        }
        if (message.event === 'error') throw new ServiceEventError((data as { error?: unknown } | null)?.error ?? data);
        if ((data as { error?: unknown } | null)?.error) throw new ServiceEventError((data as { error: unknown }).error);
        yield { ...(message.event === undefined ? {} : { name: message.event }), data };
      }
    }
  } finally {
    // However the reading ended (the caller stopped, an error), the connection is not read any more.
    body.destroy();
  }
}

/** The body as text, read up to `limit` bytes; past that the reading (and the connection) stops and `cut` is set. */
async function readLimited(body: Readable, limit: number): Promise<{ text: string; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      chunks.push(bytes);
      size += bytes.length;
      // A character cut in two at the limit reads as one replacement character.
      if (size > limit) return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), cut: true };
    }
  } finally {
    body.destroy();
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

function errorObject(text: string): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown } | null;
    return body && typeof body.error === 'object' && body.error !== null ? (body.error as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
