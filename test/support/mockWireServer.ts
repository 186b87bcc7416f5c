// The HTTP side shared by the loopback mocks of the Chat Completions and
// Anthropic Messages wires (mockChatServer.ts, mockAnthropicServer.ts): a
// queue of scripted steps, one per request, every request recorded, plain
// HTTP answers (a JSON error, an HTML page, a redirect) written here and
// streamed answers by the wire's own writer. Same shape as
// mockResponsesServer.ts, so tests read alike whichever wire they drive.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockCall, MockHttpStep, RecordedRequest } from './mockResponsesServer';

export type { MockCall, MockHttpStep, RecordedRequest };

/** A streamed answer: reasoning first (as reasoning models send it), then text, then tool calls. */
export interface WireAnswerStep {
  text?: string;
  /** The exact text deltas (their concatenation must equal `text`); default: pieces of 4 characters. */
  deltas?: string[];
  calls?: MockCall[];
  /** Reasoning streamed before the text: chat's `reasoning_content`, Anthropic's thinking (with `signature`). */
  reasoning?: { text: string; signature?: string };
  /** Anthropic only: a redacted_thinking block (its `data`) after the thinking. */
  redactedThinking?: string;
  id?: string;
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number; cache_creation_tokens?: number; reasoning_tokens?: number };
  /** The finish_reason / stop_reason to report instead of the natural one (`length`, `max_tokens`, ...). */
  finish?: string;
  /** Time the model "thinks" before its first output. */
  delayMs?: number;
  /** Pause between streamed pieces (default 1 ms: many small chunks, over time, as real services send them). */
  deltaDelayMs?: number;
}
/** A stream that goes wrong after a partial answer: an error reported in the stream, a dropped connection, or data that is not JSON. */
export interface WireFailStep {
  fail: 'error' | 'drop' | 'malformed' | 'unfinished';
  message?: string;
  /** The error's type/code, as the service names it. */
  code?: string;
  partialDeltas?: string[];
}
/** Streams these deltas, then goes silent with the connection open. */
export interface WireHangStep {
  hangAfterDeltas: string[];
}
export type WireStep = WireAnswerStep | MockHttpStep | WireFailStep | WireHangStep;
export type WireScript = WireStep | ((requestBody: any) => WireStep); // eslint-disable-line @typescript-eslint/no-explicit-any

/** Writes one wire's streams. */
export interface WireWriter {
  answer(sse: SseOut, model: string, step: WireAnswerStep): Promise<void>;
  fail(sse: SseOut, model: string, step: WireFailStep): Promise<void>;
  hang(sse: SseOut, model: string, step: WireHangStep): Promise<void>;
}

export interface MockWireServer {
  baseURL: string;
  enqueue(...steps: WireScript[]): void;
  pending(): number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

let counter = 0;
export const nextId = (prefix: string): string => `${prefix}_${process.pid}_${++counter}`;
export const pause = (ms: number | undefined): Promise<void> => (ms ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** Text in pieces of `size` characters, so a client sees real streaming. */
export function pieces(text: string, size = 4): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [''];
}

/** A server-sent event stream to one client; sends nothing once the client has gone. */
export class SseOut {
  constructor(readonly res: http.ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }

  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** One event: `data` as JSON (or as is, for a string), with an event name when given. */
  send(data: unknown, event?: string): void {
    if (this.gone) return;
    this.res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.gone) this.res.end();
  }

  /** Once what was sent has reached the client, closes the socket mid-body: a stream that broke off. */
  drop(): void {
    this.res.write(': dropping\n\n', () => this.res.socket?.destroy());
  }
}

export async function startMockWireServer(route: string, root: string, writer: WireWriter): Promise<MockWireServer> {
  const queue: WireScript[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? '';
      requests.push({ method: req.method ?? '', path: url, headers: req.headers, body, raw, receivedAt: performance.now(), sent: { bytes: 0, finished: false } });
      if (req.method !== 'POST' || url.split('?')[0] !== route) {
        return sendJson(res, 404, { error: { message: `The mock model service has no route ${req.method} ${url}.`, type: 'not_found_error' } });
      }
      const script = queue.shift();
      if (script === undefined) {
        return sendJson(res, 500, { error: { message: 'The mock model service has no scripted answer left.', type: 'api_error' } });
      }
      const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'mock-model';
      const step = typeof script === 'function' ? script(body) : script;
      if ('httpStatus' in step) {
        if (step.html !== undefined) return sendText(res, step.httpStatus, 'text/html; charset=utf-8', step.html, step.headers);
        return sendJson(res, step.httpStatus, step.body ?? { error: { message: `Scripted HTTP ${step.httpStatus}`, type: 'api_error' } }, step.headers);
      }
      const sse = new SseOut(res);
      const streaming = 'fail' in step ? writer.fail(sse, model, step) : 'hangAfterDeltas' in step ? writer.hang(sse, model, step) : writer.answer(sse, model, step);
      streaming.catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${root}`,
    enqueue: (...steps) => void queue.push(...steps),
    pending: () => queue.length,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  sendText(res, status, 'application/json', JSON.stringify(body), headers);
}

function sendText(res: http.ServerResponse, status: number, type: string, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
