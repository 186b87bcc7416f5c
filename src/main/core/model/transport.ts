// The one way model requests reach the network, whichever wire they speak:
// a `fetch` (the port: Electron's net.fetch in the desktop, environmentFetch.ts
// in the CLI) wrapped so that every answer that is not a stream of events
// fails here, as the errors serviceErrors.ts names, before an SDK sees it.
//
// Why here and not in the SDKs: they follow redirects (sending the key to
// wherever the service points), read an error body whole however long it is,
// hold an event whole however long it grows, and fold every failure of fetch
// into a "Connection error." of their own. So the wrapper refuses redirects,
// reads at most ERROR_BODY_LIMIT_BYTES of an error body, stops an event past
// its limit, and keeps the failure it saw (`failure`), which the wires prefer
// to whatever the SDK made of it.
import { ERROR_BODY_LIMIT_BYTES, sizeText } from './limits';
import {
  NotAStreamError,
  OversizedEventError,
  ServiceConnectionError,
  ServiceRedirectError,
  ServiceStatusError,
  ServiceTimeoutError,
} from './serviceErrors';

type FetchInput = Parameters<typeof fetch>[0];

export interface GuardedFetch {
  /** Pass to the SDK as its `fetch`. */
  fetch: typeof fetch;
  /** What went wrong in the transport, if anything: the error to report, whatever the SDK throws. */
  readonly failure: Error | undefined;
}

export interface GuardOptions {
  /** Longest wait for the response's headers. */
  timeoutMs: number;
  /** Longest single event of the stream, in bytes (limits.ts, eventLimitChars). */
  maxEventBytes: number;
}

/** `base`, answering only with streams of events; one per attempt, so its `failure` is that attempt's. */
export function guardFetch(base: typeof fetch, options: GuardOptions): GuardedFetch {
  let failure: Error | undefined;
  const fail = (error: Error): never => {
    failure ??= error;
    throw error;
  };
  const guarded = async (input: FetchInput, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const response = await fetchHeaders(base, input, init, options.timeoutMs, fail);
    const { status } = response;
    if (status >= 300 && status < 400) {
      // Never followed, even on the same host: the request carries the key, and a base URL that moved is for
      // the person to correct (the error names where it points). Its body is a page for browsers: not read.
      void response.body?.cancel().catch(() => undefined); // ignore: the body is unwanted; a failed cancel changes nothing
      fail(new ServiceRedirectError(status, redirectTarget(url, response.headers.get('location')), headerRecord(response.headers)));
    }
    if (status < 200 || status >= 300) fail(await statusError(response));
    const contentType = response.headers.get('content-type') ?? '';
    if (!/^text\/event-stream\b/i.test(contentType)) {
      void response.body?.cancel().catch(() => undefined); // ignore: the body is unwanted; a failed cancel changes nothing
      fail(new NotAStreamError(status, contentType));
    }
    const body = response.body?.pipeThrough(eventSizeGuard(options.maxEventBytes, (error) => (failure ??= error)));
    return new Response(body, { status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: guarded as typeof fetch,
    get failure() {
      return failure;
    },
  };
}

/** Sends the request and waits for its headers, at most `timeoutMs`; a failure to connect is a ServiceConnectionError. */
async function fetchHeaders(
  base: typeof fetch,
  input: FetchInput,
  init: RequestInit | undefined,
  timeoutMs: number,
  fail: (error: Error) => never,
): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new ServiceTimeoutError()), timeoutMs);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
  try {
    return await base(input, { ...init, signal, redirect: 'manual' });
  } catch (error) {
    // The caller's abort goes back to the SDK as it came, which names it an abort.
    if (init?.signal?.aborted) throw error;
    if (timeout.signal.aborted) return fail(new ServiceTimeoutError());
    // fetch fails with "fetch failed"; its cause is the system's error (ECONNREFUSED, ENOTFOUND, a TLS failure).
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    return fail(new ServiceConnectionError({ cause }));
  } finally {
    clearTimeout(timer);
  }
}

function redirectTarget(from: URL, location: string | null): URL | undefined {
  if (!location) return undefined;
  return URL.canParse(location, from.href) ? new URL(location, from) : undefined;
}

/** Lower-case names, as node:http gives them, for retry.ts's reading of retry-after. */
function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

/** The error for a status that is not 2xx or 3xx, from at most ERROR_BODY_LIMIT_BYTES of its body. */
async function statusError(response: Response): Promise<ServiceStatusError> {
  let read: { text: string; cut: boolean };
  try {
    read = await readLimited(response.body, ERROR_BODY_LIMIT_BYTES);
  } catch (error) {
    read = { text: error instanceof Error ? error.message : String(error), cut: false };
  }
  const error = errorObject(read.text);
  const excerpt = read.text.replace(/\s+/g, ' ').trim().slice(0, 300);
  const text = read.cut && !error ? `${excerpt}… (a longer body, not read past the first ${sizeText(ERROR_BODY_LIMIT_BYTES)})` : read.text;
  return new ServiceStatusError(response.status, error, text, headerRecord(response.headers));
}

/** The body as text, read up to `limit` bytes; past that the reading (and the download) stops and `cut` is set. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!body) return { text: '', cut: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks.push(next.value);
      size += next.value.length;
      if (size > limit) return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), cut: true };
    }
  } finally {
    void reader.cancel().catch(() => undefined); // ignore: the body was read as far as it is wanted
  }
  return { text: Buffer.concat(chunks).toString('utf8'), cut: false };
}

/** The body's `error` object (OpenAI's and Anthropic's error bodies both have one), if it is JSON with one. */
function errorObject(text: string): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown } | null;
    return body && typeof body.error === 'object' && body.error !== null ? (body.error as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // ignore: a body that is not JSON is named by its text instead
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Passes the stream's bytes through, failing it with OversizedEventError once
 * one event (the bytes between two blank lines) passes `limit`: an SDK's
 * parser would hold it whole, however long, before it could be refused.
 */
function eventSizeGuard(limit: number, onFail: (error: Error) => void): TransformStream<Uint8Array, Uint8Array> {
  let eventBytes = 0;
  let lineBytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        if (byte === LF) {
          if (lineBytes === 0) eventBytes = 0;
          lineBytes = 0;
        } else if (byte !== CR) {
          lineBytes += 1;
          eventBytes += 1;
        }
      }
      if (eventBytes > limit) {
        const error = new OversizedEventError(limit);
        onFail(error);
        controller.error(error);
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
