// The `responses` wire (the Responses API through the openai SDK, over the
// guarded transport) against a hand-written loopback server, for what a
// service may do on the wire that the scripted mock does not: split events
// anywhere, compress, end with [DONE] and write on, answer nothing, report
// errors in the several ways services do.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientOptions } from '../../../src/main/core/model/client';
import { ServiceConnectionError, ServiceTimeoutError } from '../../../src/main/core/model/serviceErrors';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../../src/main/core/model/types';

let server: http.Server | undefined;

/** A server answering every request with `handler`; the base URL to give the client. */
async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const client = (baseURL: string, more: Partial<ModelClientOptions> = {}) => createModelClient({ baseURL, apiKey: 'k', model: 'm', maxRetries: 0, env: {}, ...more });
const request = (more: Partial<ModelRequest> = {}): ModelRequest => ({ instructions: '', input: [{ type: 'message', role: 'user', text: 'hi' }], tools: [], ...more });

/** The answer, or the ModelError it failed with; the events either way. */
async function respond(baseURL: string, more: { options?: Partial<ModelClientOptions>; request?: Partial<ModelRequest>; onEvent?: (e: ModelStreamEvent) => void } = {}) {
  const events: ModelStreamEvent[] = [];
  const outcome = await client(baseURL, more.options)
    .respond(request(more.request), (e) => {
      events.push(e);
      more.onEvent?.(e);
    })
    .catch((error: unknown) => error);
  return { outcome, events, error: outcome instanceof ModelError ? outcome : undefined };
}

const sse = (res: http.ServerResponse, headers: http.OutgoingHttpHeaders = {}) => res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
const event = (data: object, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const delta = (text: string) => event({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text }, 'response.output_text.delta');
const message = (text: string) => ({ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
const completed = (text: string) =>
  event({ type: 'response.completed', response: { id: 'resp_1', object: 'response', status: 'completed', output: [message(text)], usage: { input_tokens: 3, output_tokens: 2 } } }, 'response.completed');

describe('the responses wire on the wire', () => {
  it('posts to <base URL>/responses with the key and the body, reads the events in order, and stops at [DONE]', async () => {
    let seen: Record<string, unknown> = {};
    const baseURL = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen = { method: req.method, path: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body: JSON.parse(body) };
        sse(res);
        res.end(`${delta('Hel')}${delta('lo')}${completed('Hello')}data: [DONE]\n\n${delta(' and more')}`);
      });
    });
    const { outcome, events } = await respond(baseURL);
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
    ]);
    expect(outcome).toEqual({ id: 'resp_1', output: [{ type: 'message', role: 'assistant', text: 'Hello' }], usage: { inputTokens: 3, outputTokens: 2 } });
    expect(seen).toMatchObject({ method: 'POST', path: '/v1/responses', auth: 'Bearer k', type: 'application/json', body: { model: 'm', stream: true, store: false } });
  });

  it('passes a delta on before the service has finished, and joins an event split across chunks, multi-byte text included', async () => {
    let finish: (() => void) | undefined;
    const baseURL = await serve((_req, res) => {
      sse(res);
      const text = Buffer.from(`${delta('one')}${delta('é')}${completed('oneé')}`);
      const cut = text.indexOf(0xc3) + 1; // inside the two bytes of é
      res.write(text.subarray(0, cut));
      finish = () => res.end(text.subarray(cut));
    });
    const { outcome, events } = await respond(baseURL, { onEvent: () => finish?.() });
    expect(events).toEqual([
      { type: 'text_delta', delta: 'one' },
      { type: 'text_delta', delta: 'é' },
    ]);
    expect(outcome).toMatchObject({ output: [{ type: 'message', role: 'assistant', text: 'oneé' }] });
  });

  it('undoes a gzip content encoding the service applied', async () => {
    const baseURL = await serve((_req, res) => {
      sse(res, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(`${delta('packed')}${completed('packed')}`));
    });
    const { outcome } = await respond(baseURL);
    expect(outcome).toMatchObject({ output: [{ type: 'message', role: 'assistant', text: 'packed' }] });
  });

  it('reads a compressed error body only up to the limit once inflated, so a small download cannot fill memory', async () => {
    // 16 MiB of JSON once inflated, 16 KiB on the wire.
    const packed = zlib.gzipSync(Buffer.concat([Buffer.from('{"error":{"message":"gateway down"},"pad":"'), Buffer.alloc(16 * 1024 * 1024, 'x'), Buffer.from('"}')]));
    const baseURL = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(packed);
    });
    const { error } = await respond(baseURL);
    expect(error).toMatchObject({ kind: 'http', status: 500 });
    expect(error!.message).toMatch(/^The model service had a problem of its own \(HTTP 500: \{"error":\{"message":"gateway down"\},"pad":"x+… \(a longer body, not read past the first 64 KiB\)\)/);
    expect(error!.message.length).toBeLessThan(600);
  });

  it('stops when aborted before the headers, and when aborted during the stream', async () => {
    const baseURL = await serve((req, res) => {
      if (req.url === '/slow/responses') return; // never answers
      sse(res);
      res.write(delta('one')); // then nothing more
    });
    const early = new AbortController();
    const waiting = respond(`${new URL(baseURL).origin}/slow`, { request: { signal: early.signal } });
    server!.once('request', () => early.abort());
    expect((await waiting).error).toMatchObject({ kind: 'aborted' });

    const late = new AbortController();
    const { error, events } = await respond(baseURL, { request: { signal: late.signal }, onEvent: () => late.abort() });
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(events).toEqual([{ type: 'text_delta', delta: 'one' }]);
  });

  it('refuses an already-aborted signal without connecting', async () => {
    let connections = 0;
    const baseURL = await serve((_req, res) => res.end());
    server!.on('connection', () => (connections += 1));
    const controller = new AbortController();
    controller.abort();
    expect((await respond(baseURL, { request: { signal: controller.signal } })).error).toMatchObject({ kind: 'aborted' });
    expect(connections).toBe(0);
  });

  it('names the system error when nothing listens', async () => {
    const baseURL = await serve(() => undefined);
    server!.close();
    const { error } = await respond(baseURL);
    expect(error).toMatchObject({ kind: 'http' });
    expect(error!.message).toMatch(new RegExp(`^Could not reach the model service at ${baseURL.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`));
    expect(error!.cause).toBeInstanceOf(ServiceConnectionError);
    expect((error!.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('says the service did not answer when no headers arrive within the timeout', async () => {
    const baseURL = await serve(() => undefined);
    const { error } = await respond(baseURL, { options: { timeoutMs: 100 } });
    expect(error).toMatchObject({ kind: 'http' });
    expect(error!.cause).toBeInstanceOf(ServiceTimeoutError);
    expect(error!.message).toMatch(/did not answer within 0 seconds/);
  });

  it("names an error status by the body's error and its code, or says there was no body", async () => {
    const baseURL = await serve((req, res) => {
      if (req.url === '/empty/responses') {
        res.writeHead(502);
        res.end();
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Input too long', code: 'context_length_exceeded', param: 'input', type: 'invalid_request_error' } }));
    });
    expect((await respond(baseURL)).error).toMatchObject({ kind: 'context_length', message: expect.stringContaining('(HTTP 400: Input too long)') });
    const empty = await respond(`${new URL(baseURL).origin}/empty`);
    expect(empty.error).toMatchObject({ kind: 'http', status: 502, message: expect.stringContaining('(HTTP 502: status code (no body))') });
  });

  it('fails the stream on data that is not JSON, on an error event, and on an event with an error field', async () => {
    const bodies = ['data: {"t":\n\n', event({ type: 'error', message: 'upstream exploded' }, 'error'), 'data: {"error":{"message":"bad thing"}}\n\n'];
    const baseURL = await serve((_req, res) => {
      sse(res);
      res.end(`${delta('Par')}${bodies.shift()!}`);
    });
    expect((await respond(baseURL)).error).toMatchObject({ kind: 'stream', message: expect.stringMatching(/an event that is not valid JSON/) });
    expect((await respond(baseURL)).error).toMatchObject({ kind: 'stream', message: expect.stringContaining('reported an error while answering: upstream exploded.') });
    expect((await respond(baseURL)).error).toMatchObject({ kind: 'stream', message: expect.stringContaining('reported an error while answering: bad thing.') });
  });
});
