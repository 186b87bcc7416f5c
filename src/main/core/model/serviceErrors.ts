// What can go wrong with a model request, in the transport's terms: the
// errors the guarded fetch (transport.ts) and the wires' reading of a stream
// throw, whatever the wire and its SDK, and errors.ts turns into the messages
// a person reads. The texts and fields are the openai SDK's ("500 <service
// message>", `status`, `error`, `code`, `param`, `headers`), so a failure
// reads the same whichever wire it came from.
import type { IncomingHttpHeaders } from 'node:http';

/** The service answered with an error status. `error` is the body's `error` object, if any; `headers` say when to retry (retry.ts). */
export class ServiceStatusError extends Error {
  readonly code: string | undefined;
  readonly param: string | undefined;
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown> | undefined,
    bodyText: string,
    readonly headers: IncomingHttpHeaders = {},
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
    headers: IncomingHttpHeaders = {},
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

/** One event longer than the limit (limits.ts, eventLimitChars; transport.ts stops it): the stream is stopped rather than held in memory. */
export class OversizedEventError extends Error {
  constructor(readonly limitChars: number) {
    super(`Error reading response: an event longer than ${limitChars} characters.`);
    this.name = 'OversizedEventError';
  }
}

/** A 2xx answer that is not a stream of events: a web page, a JSON document. */
export class NotAStreamError extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string,
  ) {
    super(`HTTP ${status} answered with ${contentType || 'no content type'} instead of text/event-stream.`);
    this.name = 'NotAStreamError';
  }
}

/** "500 database on fire", as the SDK wrote it, so the service's words can be told from the status. */
function statusMessage(status: number, error: Record<string, unknown> | undefined, bodyText: string): string {
  const said = typeof error?.message === 'string' ? error.message : error ? JSON.stringify(error) : bodyText;
  return said ? `${status} ${said}` : `${status} status code (no body)`;
}
