// The relay in front of a model service: what a live case's requests go through. The "service" here is a loopback
// server, so the test needs no network; it checks that the key and body reach the service, that the answer comes
// back unchanged (status, headers, streamed body), and that every request body is saved in order.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRelayedRequests, startRelay } from '../../../src/main/core/eval/relay';
import { makeTempHome, type TempHome } from '../../support/tempHome';

describe('the eval relay', () => {
  let temp: TempHome | undefined;
  let upstream: http.Server | undefined;
  afterEach(async () => {
    upstream?.closeAllConnections();
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
    await temp?.cleanup();
  });

  it('forwards each request with its key to the service path, streams the answer back unchanged, and saves every body', async () => {
    temp = await makeTempHome({ prefix: 'eval-relay' });
    const seen: Array<{ url?: string; auth?: string; body: string }> = [];
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body });
        if (body.includes('fail')) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
          res.end('{"error":{"message":"slow down"}}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: one\ndata: {"n":1}\n\n');
        res.end('event: two\ndata: {"n":2}\n\n');
      });
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v1`;
    const file = path.join(temp.root, 'requests.jsonl');
    const relay = await startRelay(base, file, (input, init) => globalThis.fetch(input, init));
    expect(relay.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const first = await fetch(`${relay.baseURL}/responses`, { method: 'POST', headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' }, body: '{"input":"hi"}' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    expect(await first.text()).toBe('event: one\ndata: {"n":1}\n\nevent: two\ndata: {"n":2}\n\n');
    const second = await fetch(`${relay.baseURL}/responses`, { method: 'POST', headers: { authorization: 'Bearer sk-test' }, body: '{"input":"fail"}' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('7');
    expect(await second.json()).toEqual({ error: { message: 'slow down' } });
    await relay.close();

    expect(seen).toEqual([
      { url: '/api/v1/responses', auth: 'Bearer sk-test', body: '{"input":"hi"}' },
      { url: '/api/v1/responses', auth: 'Bearer sk-test', body: '{"input":"fail"}' },
    ]);
    expect(await readRelayedRequests(file)).toEqual([
      { index: 0, method: 'POST', path: '/api/v1/responses', body: '{"input":"hi"}' },
      { index: 1, method: 'POST', path: '/api/v1/responses', body: '{"input":"fail"}' },
    ]);
  });
});
