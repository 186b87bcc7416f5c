// The Responses request over node:http, against a real loopback server: what
// the model client relies on (the request it sends, events parsed as they
// arrive, aborts, the errors) and what a service may do (compress, send no
// body, ask for a delay before a retry).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MalformedEventError,
  OversizedEventError,
  postForEvents,
  ServiceConnectionError,
  ServiceEventError,
  ServiceRedirectError,
  ServiceStatusError,
  ServiceTimeoutError,
  type EventsRequest,
  type ServiceEvent,
} from '../../../src/main/core/model/responsesHttp';

let server: http.Server | undefined;

async function serve(handler: http.RequestListener): Promise<URL> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/responses`);
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const request = (url: URL, more: Partial<EventsRequest> = {}): EventsRequest => ({
  url,
  apiKey: 'k',
  body: '{"a":1}',
  signal: new AbortController().signal,
  timeoutMs: 10_000,
  ...more,
});

async function collect(events: AsyncIterable<ServiceEvent>): Promise<ServiceEvent[]> {
  const all: ServiceEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const sse = (res: http.ServerResponse, headers: http.OutgoingHttpHeaders = {}) => res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });

describe('postForEvents', () => {
  it('posts the body with the key, organization and project, and yields the events in order until [DONE]', async () => {
    let seen: Record<string, unknown> = {};
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen = { method: req.method, path: req.url, auth: req.headers.authorization, type: req.headers['content-type'], org: req.headers['openai-organization'], project: req.headers['openai-project'], body };
        sse(res);
        res.end('event: response.created\ndata: {"type":"response.created"}\n\ndata: {"type":"x","n":2}\n\ndata: [DONE]\n\ndata: {"type":"after"}\n\n');
      });
    });
    const response = await postForEvents(request(url, { organization: 'org_1', project: 'proj_1' }));
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('text/event-stream');
    expect(await collect(response.events)).toEqual([
      { name: 'response.created', data: { type: 'response.created' } },
      { data: { type: 'x', n: 2 } },
    ]);
    expect(seen).toEqual({ method: 'POST', path: '/v1/responses', auth: 'Bearer k', type: 'application/json', org: 'org_1', project: 'proj_1', body: '{"a":1}' });
  });

  it('yields an event before the server has finished, and joins an event split across chunks, multi-byte text included', async () => {
    let finish: (() => void) | undefined;
    const url = await serve((_req, res) => {
      sse(res);
      const text = Buffer.from('data: {"t":"one"}\n\ndata: {"t":"é"}\n\n');
      const cut = text.indexOf(0xc3) + 1; // inside the two bytes of é
      res.write(text.subarray(0, cut));
      finish = () => res.end(text.subarray(cut));
    });
    const iterator = (await postForEvents(request(url))).events[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ data: { t: 'one' } });
    finish!();
    expect((await iterator.next()).value).toEqual({ data: { t: 'é' } });
    expect((await iterator.next()).done).toBe(true);
  });

  it('undoes a gzip content encoding', async () => {
    const url = await serve((_req, res) => {
      sse(res, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('data: {"t":"packed"}\n\n'));
    });
    expect(await collect((await postForEvents(request(url))).events)).toEqual([{ data: { t: 'packed' } }]);
  });

  it('fails with the abort reason when aborted before the answer, and stops reading when aborted during it', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      sse(res);
      res.write('data: {"t":"one"}\n\n'); // then nothing more
    });
    const early = new AbortController();
    const pending = postForEvents(request(new URL('/slow', url), { signal: early.signal }));
    setTimeout(() => early.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const iterator = (await postForEvents(request(url, { signal: late.signal }))).events[Symbol.asyncIterator]();
    await iterator.next();
    late.abort();
    await expect(iterator.next()).rejects.toThrow();
  });

  it('refuses an already-aborted signal without connecting', async () => {
    let connections = 0;
    const url = await serve((_req, res) => {
      connections += 1;
      res.end();
    });
    const controller = new AbortController();
    controller.abort();
    await expect(postForEvents(request(url, { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(connections).toBe(0);
  });

  it('fails with a connection error carrying the system error when nothing listens', async () => {
    const url = await serve(() => undefined);
    server!.close();
    const error = await postForEvents(request(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceConnectionError);
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('fails with a timeout when no headers arrive in time', async () => {
    const url = await serve(() => undefined);
    await expect(postForEvents(request(url, { timeoutMs: 100 }))).rejects.toBeInstanceOf(ServiceTimeoutError);
  });

  it("reports an error status with the body's error, its code, param and headers, or says there was no body", async () => {
    const url = await serve((req, res) => {
      if (req.url === '/empty') {
        res.writeHead(502);
        res.end();
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end(JSON.stringify({ error: { message: 'Input too long', code: 'context_length_exceeded', param: 'input', type: 'invalid_request_error' } }));
    });
    const error = (await postForEvents(request(url)).catch((e: unknown) => e)) as ServiceStatusError;
    expect(error).toBeInstanceOf(ServiceStatusError);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'input', message: '400 Input too long' });
    expect(error.headers['retry-after']).toBe('3');
    await expect(postForEvents(request(new URL('/empty', url)))).rejects.toMatchObject({ status: 502, message: '502 status code (no body)' });
  });

  it('fails the stream on data that is not JSON, on an error event, and on an event with an error field', async () => {
    const bodies = ['data: {"t":\n\n', 'event: error\ndata: {"type":"error","message":"upstream exploded"}\n\n', 'data: {"error":{"message":"bad thing"}}\n\n'];
    const url = await serve((_req, res) => {
      sse(res);
      res.end(bodies.shift());
    });
    await expect(collect((await postForEvents(request(url))).events)).rejects.toBeInstanceOf(MalformedEventError);
    await expect(collect((await postForEvents(request(url))).events)).rejects.toMatchObject({ name: 'ServiceEventError', message: 'upstream exploded' });
    const third = await collect((await postForEvents(request(url))).events).catch((e: unknown) => e);
    expect(third).toBeInstanceOf(ServiceEventError);
    expect((third as ServiceEventError).error).toEqual({ message: 'bad thing' });
  });

  it('reads a compressed error body only up to the limit once inflated, so a small download cannot fill memory', async () => {
    // 16 MiB of JSON once inflated, 16 KiB on the wire.
    const packed = zlib.gzipSync(Buffer.concat([Buffer.from('{"error":{"message":"gateway down"},"pad":"'), Buffer.alloc(16 * 1024 * 1024, 'x'), Buffer.from('"}')]));
    const url = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(packed);
    });
    const error = (await postForEvents(request(url)).catch((e: unknown) => e)) as ServiceStatusError;
    expect(error).toBeInstanceOf(ServiceStatusError);
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^500 \{"error":\{"message":"gateway down"\},"pad":"x+… \(a longer body, not read past the first 64 KiB\)$/);
    expect(error.message.length).toBeLessThan(400);
  });

  it('fails a redirect with its target resolved against the request, without reading its body or following it', async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(307, { location: '../v2/responses' });
      res.end('<p>moved</p>');
    });
    const error = (await postForEvents(request(url)).catch((e: unknown) => e)) as ServiceRedirectError;
    expect(error).toBeInstanceOf(ServiceRedirectError);
    expect(error).toBeInstanceOf(ServiceStatusError);
    expect(error.status).toBe(307);
    expect(error.target?.href).toBe(new URL('/v2/responses', url).href);
    expect(paths).toEqual(['/v1/responses']);
  });

  it('stops a stream whose event grows past the limit, without waiting for its end', async () => {
    const url = await serve((_req, res) => {
      sse(res);
      res.write('data: {"type":"response.output_text.delta","delta":"');
      // Written in pieces and never finished, as a service that keeps one event open would.
      const piece = 'y'.repeat(16 * 1024);
      for (let i = 0; i < 16; i += 1) res.write(piece);
    });
    const { events } = await postForEvents(request(url, { maxEventChars: 64 * 1024 }));
    const error = await collect(events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OversizedEventError);
    expect((error as OversizedEventError).limitChars).toBe(64 * 1024);
  });
});
