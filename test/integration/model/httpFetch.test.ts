// The model client's fetch over node:http, against a real loopback server:
// what the SDK relies on (status, headers, a body that streams as it arrives,
// aborts, connection errors) and what a service may do (compress, send no body).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch } from '../../../src/main/core/model/httpFetch';

let server: http.Server | undefined;

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('httpFetch', () => {
  it('sends the method, headers and body, and answers with status and headers', async () => {
    let seen: { method?: string; auth?: string; body?: string } = {};
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen = { method: req.method, auth: req.headers.authorization, body };
        res.writeHead(201, { 'x-request-id': 'req_1', 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    const response = await httpFetch(`${base}/v1/responses`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"a":1}',
    });
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"a":1}' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('streams the body: the first chunk is readable before the server has finished', async () => {
    let finish: (() => void) | undefined;
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await httpFetch(base);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish!();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });

  it('undoes a gzip content encoding', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      res.end(zlib.gzipSync('compressed text'));
    });
    expect(await (await httpFetch(base)).text()).toBe('compressed text');
  });

  it('answers 204 with no body', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await httpFetch(base);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('fails with an AbortError when aborted before the answer, and ends the body when aborted during it', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n'); // then nothing more
    });
    const early = new AbortController();
    const pending = httpFetch(`${base}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const response = await httpFetch(base, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses an already-aborted signal without connecting', async () => {
    let connections = 0;
    const base = await serve((_req, res) => {
      connections += 1;
      res.end();
    });
    const controller = new AbortController();
    controller.abort();
    await expect(httpFetch(base, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(connections).toBe(0);
  });

  it('fails with the system error when nothing listens', async () => {
    const base = await serve(() => undefined);
    server!.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(httpFetch(base)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses URLs that are not http or https', async () => {
    await expect(httpFetch('file:///etc/passwd')).rejects.toThrow(/http or https/);
  });
});
