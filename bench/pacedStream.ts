// A loopback proxy in front of the mock model service that can pace its
// server-sent events: the mock writes a whole answer at once, while a real
// model streams its deltas over seconds. With a pace of 0 it passes the
// stream through as it arrives. Either way it notes when the last byte of
// each answer went out, which is where "lag behind the stream" starts.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export interface PacedStream {
  /** Ends with /v1, like the mock's. */
  baseURL: string;
  /** Milliseconds to wait after each text delta event; 0 passes the stream through. */
  deltaIntervalMs: number;
  /** Epoch milliseconds (performance.timeOrigin based) when the last answer's last byte was written; 0 before any. */
  lastByteAt: number;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

export async function startPacedStream(targetBaseURL: string): Promise<PacedStream> {
  const target = new URL(targetBaseURL);
  const server = http.createServer((req, res) => {
    void forward(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The bench proxy could not reach the mock model service: ${String(error)}`);
    });
  });

  const paced: PacedStream = {
    baseURL: '',
    deltaIntervalMs: 0,
    lastByteAt: 0,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await fetch(new URL(req.url ?? '/', target.origin), {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    const interval = paced.deltaIntervalMs;
    let buffered = '';
    const decoder = new TextDecoder();
    for await (const chunk of upstream.body ?? []) {
      if (interval <= 0) {
        res.write(chunk);
        continue;
      }
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffered.indexOf('\n\n');
      while (end !== -1) {
        const event = buffered.slice(0, end + 2);
        buffered = buffered.slice(end + 2);
        res.write(event);
        if (event.startsWith('event: response.output_text.delta\n')) await sleep(interval);
        end = buffered.indexOf('\n\n');
      }
    }
    if (buffered) res.write(buffered);
    res.end(() => (paced.lastByteAt = now()));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  paced.baseURL = `http://127.0.0.1:${port}${target.pathname}`;
  return paced;
}
