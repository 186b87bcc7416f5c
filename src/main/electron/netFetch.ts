// Model requests through Chromium's network stack: Electron's net.fetch
// applies the system's proxy settings, PAC files and certificate store, as a
// browser on this machine would (core's environmentFetch only reads
// HTTPS_PROXY and friends). Handed to core as the wires' fetch port.
//
// Chromium names a failure in its own words ("net::ERR_CONNECTION_REFUSED")
// where Node's fetch gives the system's code as the error's cause. Core reads
// that code to tell a person what failed (a name that does not resolve, a
// refused connection, an untrusted certificate), so a failure is passed on in
// Node's shape: "fetch failed", caused by an error with the matching code.
import type { Net } from 'electron';

/** Chromium's names for the failures core tells apart, as Node's system codes. */
const NODE_CODES: Record<string, string> = {
  ERR_NAME_NOT_RESOLVED: 'ENOTFOUND',
  ERR_NAME_RESOLUTION_FAILED: 'EAI_AGAIN',
  ERR_CONNECTION_REFUSED: 'ECONNREFUSED',
  ERR_CONNECTION_RESET: 'ECONNRESET',
  ERR_CONNECTION_TIMED_OUT: 'ETIMEDOUT',
  ERR_ADDRESS_UNREACHABLE: 'EHOSTUNREACH',
  ERR_INTERNET_DISCONNECTED: 'ENETUNREACH',
};

/** A fetch for core over `net.fetch`; a URL object is passed as its text, which net.fetch takes. */
export function netFetch(net: Pick<Net, 'fetch'>): typeof fetch {
  return async (input, init) => {
    try {
      return await net.fetch(input instanceof URL ? input.href : input, init);
    } catch (error) {
      throw asNodeFetchError(error);
    }
  };
}

/** "net::ERR_CONNECTION_REFUSED" becomes "fetch failed" caused by ECONNREFUSED; certificate errors keep their name as the code. */
export function asNodeFetchError(error: unknown): unknown {
  // An abort is the caller's own, and stays as it came.
  if (!(error instanceof Error) || error.name === 'AbortError') return error;
  const chromium = /net::(ERR_[A-Z_]+)/.exec(error.message)?.[1];
  if (chromium === undefined) return error;
  const code = NODE_CODES[chromium] ?? (chromium.includes('CERT') || chromium.includes('SSL') ? chromium : undefined);
  const cause = Object.assign(new Error(`${error.message}${code && code !== chromium ? ` (${code})` : ''}`), code ? { code } : {});
  return new TypeError('fetch failed', { cause });
}
