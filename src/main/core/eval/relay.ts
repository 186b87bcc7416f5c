// The relay `mino eval` puts in front of the model service, scripted or live:
// a loopback HTTP server the run's settings point at, which saves every
// request body Mino sent (requests.jsonl, beside the run) and forwards it to
// the service, streaming the answer back unchanged. Scoring reads that file
// to know what reached the service (no_text_in_requests, max_requests),
// whatever wire the service speaks; Mino itself runs as it always does.
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorText, log } from '../log/log';

/** One request as the relay saved it: a line of requests.jsonl. */
export interface RelayedRequest {
  index: number;
  method: string;
  path: string;
  /** The body exactly as Mino sent it. */
  body: string;
}

export interface Relay {
  /** The service's base URL, moved onto the relay: same path, loopback host. */
  baseURL: string;
  /** Requests relayed so far. */
  count(): number;
  /** Stops the relay once every request is saved. */
  close(): Promise<void>;
}

/** Headers that belong to one hop, not the request: the relay's own connection sets them. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'accept-encoding', 'proxy-connection', 'upgrade']);

/**
 * Starts a relay to `upstreamBaseURL` (e.g. https://api.openai.com/v1), saving requests to `file`.
 * `fetchUpstream` reaches the service (environmentFetch: through the person's proxy, if any).
 */
export async function startRelay(upstreamBaseURL: string, file: string, fetchUpstream: typeof fetch): Promise<Relay> {
  const upstream = new URL(upstreamBaseURL);
  let index = 0;
  // Saved in arrival order, one append at a time; close() waits for the last.
  let saving: Promise<void> = fs.writeFile(file, '', { mode: 0o600 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: RelayedRequest = { index: index++, method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') };
      saving = saving.then(() => fs.appendFile(file, `${JSON.stringify(record)}\n`));
      forward(req, res, body, new URL(record.path, upstream.origin), fetchUpstream).catch((error: unknown) => {
        log.warn('eval.relay_failed', { url: upstream.origin, error: errorText(error) });
        if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `The mino eval relay could not reach ${upstream.origin}: ${errorText(error)}`, type: 'relay_error' } }));
        } else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    count: () => index,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await saving;
    },
  };
}

async function forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, url: URL, fetchUpstream: typeof fetch): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const stop = new AbortController();
  // Mino stopped waiting (a stopped turn, an idle timeout): the service is not kept streaming to no one.
  res.once('close', () => stop.abort());
  const answer = await fetchUpstream(url, {
    method: req.method,
    headers,
    ...(body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
    redirect: 'manual',
    signal: stop.signal,
  });
  const out: Record<string, string> = {};
  // fetch has already decoded a compressed body, so its encoding and length no longer describe what is sent on.
  answer.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name) && name !== 'content-encoding') out[name] = value;
  });
  res.writeHead(answer.status, out);
  if (answer.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), res);
}

/** The requests a run's relay saved, in order. */
export async function readRelayedRequests(file: string): Promise<RelayedRequest[]> {
  const text = await fs.readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RelayedRequest);
}
