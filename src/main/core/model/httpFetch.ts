// The fetch the model client hands the openai SDK: one request over node:http
// or node:https, answered with a standard Response whose body streams as the
// bytes arrive.
//
// Why not Node's own fetch: it parses HTTP with a WebAssembly build of llhttp
// that is compiled on first use and optimised further on a background thread,
// and a process cannot exit until that thread is done. For `mino exec`, that
// was the largest share of its start-up and exit time (about 100 ms of a
// one-turn run on a two-core machine, more under load), spent before any work.
// node:http uses the native parser. Libraries such as node-fetch would bring
// URL and Unicode tables that cost more to load than this file.
import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

/** Statuses whose response has no body, which the Response constructor refuses to be given one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function requestBody(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // The model client sends JSON text only; uploads (forms, streams) are not part of Mino.
  throw new TypeError('This fetch sends text or bytes only; the request body was of another kind.');
}

/** Undoes a content encoding the server applied, flushing as data arrives so a stream stays a stream. */
function decoded(res: http.IncomingMessage): Readable {
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
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
  return res.pipe(decoder);
}

export const httpFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
  if (typeof input !== 'string' && !(input instanceof URL)) {
    return Promise.reject(new TypeError('This fetch takes a URL, not a Request object.'));
  }
  const url = new URL(input);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new TypeError(`Cannot fetch ${url.protocol} URLs; the model service must be reached over http or https.`));
  }
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  let body: string | Uint8Array | undefined;
  try {
    body = requestBody(init.body);
  } catch (error) {
    return Promise.reject(error);
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));

  return new Promise<Response>((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: init.method ?? 'GET', headers });
    let response: http.IncomingMessage | undefined;
    const onAbort = () => {
      const reason = abortReason(signal!);
      // Before the headers, the promise fails; after, the body stream does.
      request.destroy(reason instanceof Error ? reason : undefined);
      response?.destroy(reason instanceof Error ? reason : undefined);
      reject(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);

    request.once('error', (error) => {
      done();
      reject(error);
    });
    request.once('response', (res) => {
      response = res;
      res.once('close', done);
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      const status = res.statusCode ?? 0;
      const hasBody = !NULL_BODY_STATUSES.has(status) && init.method !== 'HEAD';
      if (!hasBody) res.resume();
      resolve(
        new Response(hasBody ? (Readable.toWeb(decoded(res)) as ReadableStream<Uint8Array>) : null, {
          status,
          statusText: res.statusMessage ?? '',
          headers: responseHeaders,
        }),
      );
    });
    request.end(body);
  });
};
