// When a model request that failed before its stream began is worth sending
// again, and after how long. Mino retries itself, rather than leaving it to
// the SDKs (their retries are off: wires/openaiClient.ts), so that the person
// is told each time: "The model service answered 429 (rate limited);
// retrying in 4 s (attempt 2 of 4)". A stream that already
// began is never retried: part of the answer has been shown. The rules here
// read no clock and no random source: the client passes in the time and the
// backoff's jitter, so each answer follows from its inputs.
import type { IncomingHttpHeaders } from 'node:http';
import { ServiceConnectionError, ServiceStatusError, ServiceTimeoutError } from './serviceErrors';

/** Retries after the first attempt unless configured otherwise: four attempts in all. */
export const DEFAULT_MAX_RETRIES = 3;
/** A service asking for a longer wait than this is not retried: the turn fails and says so. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/** Why a failed request may be sent again. */
export interface RetryCause {
  /** "answered 429 (rate limited)", "could not be reached (connect ECONNREFUSED ...)" */
  what: string;
  /** The wait the service asked for (Retry-After, retry-after-ms), if any. */
  askedMs: number | null;
}

const STATUS_WORDS: Record<number, string> = {
  408: 'request timeout',
  409: 'conflict',
  429: 'rate limited',
  500: 'server error',
  502: 'bad gateway',
  503: 'unavailable',
  504: 'gateway timeout',
};

/** The statuses worth another try: a timeout, a lock conflict, rate limiting, the service's own failures. */
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * A request that failed before any answer, in a way that may pass on a later
 * try; null for anything else. `now` (ms since the epoch) is when it failed,
 * for a retry-after given as a date.
 */
export function retryCause(error: unknown, now: number): RetryCause | null {
  // A timeout already waited as long as the person allowed; an abort was asked for.
  if (error instanceof ServiceTimeoutError) return null;
  if (error instanceof ServiceConnectionError) {
    const cause = error.cause instanceof Error && error.cause.message ? ` (${error.cause.message})` : '';
    return { what: `could not be reached${cause}`, askedMs: null };
  }
  if (error instanceof ServiceStatusError && retryableStatus(error.status)) {
    const words = STATUS_WORDS[error.status] ?? 'server error';
    return { what: `answered ${error.status} (${words})`, askedMs: retryAfterMs(error.headers, now) };
  }
  return null;
}

/** The wait a response asks for: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date (counted from `now`, ms since the epoch). */
export function retryAfterMs(headers: IncomingHttpHeaders | undefined, now: number): number | null {
  const header = (name: string) => {
    const value = headers?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = header('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long to wait before attempt `attempt + 1` after attempt `attempt`
 * failed: what the service asked for, else an exponential backoff with
 * jitter (so several windows do not retry in step). Null: do not retry.
 */
export function retryDelayMs(cause: RetryCause, attempt: number, random: () => number): number | null {
  if (cause.askedMs !== null) return cause.askedMs <= MAX_RETRY_AFTER_MS ? cause.askedMs : null;
  const backoff = Math.min(BACKOFF_START_MS * 2 ** (attempt - 1), BACKOFF_MAX_MS);
  return Math.round(backoff * (1 - random() * 0.25));
}

/** "4", "0.5", "12": seconds as a person reads them. */
export function secondsText(ms: number): string {
  return ms >= 10_000 ? String(Math.round(ms / 1000)) : String(Math.round(ms / 100) / 10);
}

/** What the person is told before a retry. `attempt` is the one about to be made. */
export function retryNotice(cause: RetryCause, delayMs: number, attempt: number, attempts: number): string {
  return `The model service ${cause.what}; retrying in ${secondsText(delayMs)} s (attempt ${attempt} of ${attempts}).`;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it is aborted. */
export function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
