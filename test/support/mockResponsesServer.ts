// A real loopback HTTP server that speaks the Responses API's streaming
// protocol (server-sent events) the way the openai SDK expects. It is the one
// fake at the model edge: tests script what "the model" answers, turn by turn,
// and read back every request it received. A child process (the CLI) can be
// pointed at `baseURL` like any other model service.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface MockCall {
  name: string;
  /** An object is sent as its JSON text. */
  arguments: Record<string, unknown> | string;
  call_id?: string;
}

/** A normal streamed answer: optional text (split into several deltas), then optional function calls. */
export interface MockAnswerStep {
  text?: string;
  /** The exact deltas to stream for `text` (their concatenation must equal it); default: a few even slices. */
  deltas?: string[];
  calls?: MockCall[];
  /** Response id; generated when omitted. */
  id?: string;
  /** Reported in `response.completed`; default 10 in, 5 out. */
  usage?: { input_tokens: number; output_tokens: number; cached_tokens?: number; reasoning_tokens?: number };
  /**
   * A reasoning item sent before the text and calls, as reasoning models do:
   * its summary streamed in small chunks (`response.reasoning_summary_text.delta`),
   * its encrypted content in the finished item.
   */
  reasoning?: MockReasoning;
  /** Time the service "thinks" after `response.created`, before the first output event, as a real model does. */
  delayMs?: number;
  /** Pause between streamed text deltas, so a client sees the answer arrive over time. */
  deltaDelayMs?: number;
  /**
   * Characters per text delta, for a long answer: cut into many small deltas
   * as a service streams it, each sent only once the client has read the
   * earlier ones (so a client that stops reading stops the mock too).
   */
  deltaSize?: number;
}
export interface MockReasoning {
  summary: string;
  encrypted_content: string;
  id?: string;
  /** Characters per summary delta (default 3), so the client sees many small chunks. */
  chunk?: number;
}
/** A plain HTTP answer instead of a stream: a JSON error body, or an HTML page (a web server, not the API). */
export interface MockHttpStep {
  httpStatus: number;
  body?: object;
  /** Sent as text/html instead of the JSON body. */
  html?: string;
  /** Extra response headers, e.g. `retry-after` on a 429 or `location` on a redirect. */
  headers?: Record<string, string>;
  /**
   * The JSON body grown to this many bytes (a `padding` string after `body`'s
   * fields, so no prefix of it is complete JSON), sent in 64 KiB chunks, each
   * once the client has read the earlier ones, as a server writing a huge
   * error page does.
   */
  bodyBytes?: number;
}
/**
 * A stream that goes wrong: `failed` and `incomplete` end with those events,
 * `error` sends an SSE `error` event, `drop` closes the connection mid-stream,
 * `malformed` sends an event whose data is not JSON (`message` is that data).
 */
export interface MockFailStep {
  fail: 'failed' | 'incomplete' | 'error' | 'drop' | 'malformed';
  message?: string;
  /** The partial text streamed before it goes wrong; default "Partial" in two deltas. */
  partialDeltas?: string[];
  /** Pause between the partial deltas and before the failure. */
  deltaDelayMs?: number;
}
/**
 * Streams these text deltas, then goes silent: nothing more is sent and the
 * connection stays open until the client goes away (aborts, idle timeouts).
 */
export interface MockHangStep {
  hangAfterDeltas: string[];
  /** Reasoning summary deltas streamed (and never finished) before going silent, so a test sees reasoning mid-stream. */
  hangInReasoning?: string[];
}
export type MockStep = MockAnswerStep | MockHttpStep | MockFailStep | MockHangStep;
/** Answers based on the request body it receives. */
export type MockTurnScript = MockStep | ((requestBody: any) => MockStep); // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The body exactly as received, so tests can search it (for secrets, say). */
  raw: string;
  /** performance.now() when the request's headers arrived, for start-up benchmarks. */
  receivedAt: number;
  /**
   * The answer's body as the mock wrote it, counted while it writes: `bytes`
   * written so far, `finished` once all of it left the mock. A client that
   * stops reading a long body leaves it unfinished.
   */
  sent: { bytes: number; finished: boolean };
}

export interface MockServerOptions {
  /** Serve HTTPS with this key and certificate (PEM) instead of plain HTTP: baseURL is then https://127.0.0.1:<port>/v1. */
  tls?: { key: string; cert: string };
}

export interface MockResponsesServer {
  /** Ends with /v1, ready for the SDK's baseURL. */
  baseURL: string;
  enqueue(...steps: MockTurnScript[]): void;
  /** Steps not yet consumed. */
  pending(): number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_${process.pid}_${++counter}`;

/** Splits text into a few deltas (or into deltas of `size` characters) so tests see real streaming, not one chunk. */
function splitIntoDeltas(text: string, size = Math.max(1, Math.ceil(text.length / 3))): string[] {
  if (text.length <= 1) return [text];
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/** What has been written of each response, for RecordedRequest.sent. */
const sentOf = new WeakMap<http.ServerResponse, RecordedRequest['sent']>();

/** Writes a chunk of body, counted in RecordedRequest.sent. Nothing is written to a client that went away. */
function write(res: http.ServerResponse, chunk: string): void {
  if (res.destroyed || res.writableEnded) return;
  const sent = sentOf.get(res);
  if (sent) sent.bytes += Buffer.byteLength(chunk);
  res.write(chunk);
}

/** Resolves once the client has taken what was written (or has gone away), as a server honouring backpressure waits. */
function drained(res: http.ServerResponse): Promise<void> {
  if (!res.writableNeedDrain || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

class SseWriter {
  private sequence = 0;
  constructor(readonly res: http.ServerResponse) {}

  start(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
  }

  send(type: string, payload: Record<string, unknown>): void {
    // A client that went away during a pause (a stopped turn) is sent nothing more.
    if (this.res.destroyed || this.res.writableEnded) return;
    const data = { type, sequence_number: this.sequence++, ...payload };
    write(this.res, `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

function responseObject(id: string, model: string, status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: null,
    ...extra,
  };
}

const pause = (ms: number | undefined): Promise<void> => (ms ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

async function streamTextItem(sse: SseWriter, outputIndex: number, text: string, deltas: string[], deltaDelayMs?: number) {
  const itemId = nextId('msg');
  const part = { type: 'output_text', text: '', annotations: [] };
  sse.send('response.output_item.added', {
    output_index: outputIndex,
    item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
  });
  sse.send('response.content_part.added', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
  for (const [index, delta] of deltas.entries()) {
    if (index > 0) await pause(deltaDelayMs);
    // A client that went away is sent nothing more; one that is slow to read is waited for.
    if (sse.res.destroyed) break;
    sse.send('response.output_text.delta', { item_id: itemId, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
    await drained(sse.res);
  }
  return { itemId, finish: () => finishTextItem(sse, itemId, outputIndex, text) };
}

function finishTextItem(sse: SseWriter, itemId: string, outputIndex: number, text: string) {
  const part = { type: 'output_text', text, annotations: [] };
  sse.send('response.output_text.done', { item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] });
  sse.send('response.content_part.done', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
  const item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [part] };
  sse.send('response.output_item.done', { output_index: outputIndex, item });
  return item;
}

function streamCallItem(sse: SseWriter, outputIndex: number, call: MockCall) {
  const itemId = nextId('fc');
  const callId = call.call_id ?? nextId('call');
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  const base = { id: itemId, type: 'function_call', call_id: callId, name: call.name };
  sse.send('response.output_item.added', { output_index: outputIndex, item: { ...base, arguments: '', status: 'in_progress' } });
  for (const delta of splitIntoDeltas(args)) {
    sse.send('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
  }
  sse.send('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, name: call.name, arguments: args });
  const item = { ...base, arguments: args, status: 'completed' };
  sse.send('response.output_item.done', { output_index: outputIndex, item });
  return item;
}

/** The item exactly as the mock sends it in `response.output_item.done` and `response.completed`. */
export function mockReasoningItem(reasoning: MockReasoning & { id: string }) {
  return { id: reasoning.id, type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning.summary }], encrypted_content: reasoning.encrypted_content };
}

function streamReasoningItem(sse: SseWriter, outputIndex: number, reasoning: MockReasoning) {
  const id = reasoning.id ?? nextId('rs');
  sse.send('response.output_item.added', { output_index: outputIndex, item: { id, type: 'reasoning', summary: [], encrypted_content: null } });
  const part = { type: 'summary_text', text: '' };
  sse.send('response.reasoning_summary_part.added', { item_id: id, output_index: outputIndex, summary_index: 0, part });
  const size = reasoning.chunk ?? 3;
  for (let i = 0; i < reasoning.summary.length; i += size) {
    sse.send('response.reasoning_summary_text.delta', { item_id: id, output_index: outputIndex, summary_index: 0, delta: reasoning.summary.slice(i, i + size) });
  }
  sse.send('response.reasoning_summary_text.done', { item_id: id, output_index: outputIndex, summary_index: 0, text: reasoning.summary });
  sse.send('response.reasoning_summary_part.done', { item_id: id, output_index: outputIndex, summary_index: 0, part: { ...part, text: reasoning.summary } });
  const item = mockReasoningItem({ ...reasoning, id });
  sse.send('response.output_item.done', { output_index: outputIndex, item });
  return item;
}

async function answer(res: http.ServerResponse, model: string, step: MockAnswerStep): Promise<void> {
  const id = step.id ?? nextId('resp');
  const sse = new SseWriter(res);
  sse.start();
  sse.send('response.created', { response: responseObject(id, model, 'in_progress', []) });
  sse.send('response.in_progress', { response: responseObject(id, model, 'in_progress', []) });
  await pause(step.delayMs);
  // The client went away while the model "thought" (a stopped turn): nothing more to send.
  if (res.destroyed) return;
  const output: unknown[] = [];
  if (step.reasoning) output.push(streamReasoningItem(sse, output.length, step.reasoning));
  if (step.text !== undefined) {
    const deltas = step.deltas ?? splitIntoDeltas(step.text, step.deltaSize);
    output.push((await streamTextItem(sse, output.length, step.text, deltas, step.deltaDelayMs)).finish());
  }
  for (const call of step.calls ?? []) output.push(streamCallItem(sse, output.length, call));
  const usage = step.usage ?? { input_tokens: 10, output_tokens: 5 };
  sse.send('response.completed', {
    response: responseObject(id, model, 'completed', output, {
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    }),
  });
  res.end();
}

async function fail(res: http.ServerResponse, model: string, step: MockFailStep): Promise<void> {
  const id = nextId('resp');
  const sse = new SseWriter(res);
  sse.start();
  sse.send('response.created', { response: responseObject(id, model, 'in_progress', []) });
  const deltas = step.partialDeltas ?? ['Par', 'tial'];
  const partial = await streamTextItem(sse, 0, deltas.join(''), deltas, step.deltaDelayMs);
  await pause(step.deltaDelayMs);
  if (res.destroyed) return;
  switch (step.fail) {
    case 'failed':
      partial.finish();
      sse.send('response.failed', {
        response: responseObject(id, model, 'failed', [], {
          error: { code: 'server_error', message: step.message ?? 'The model had an internal failure.' },
        }),
      });
      res.end();
      return;
    case 'incomplete':
      partial.finish();
      sse.send('response.incomplete', {
        response: responseObject(id, model, 'incomplete', [], {
          incomplete_details: { reason: step.message ?? 'max_output_tokens' },
        }),
      });
      res.end();
      return;
    case 'error':
      sse.send('error', { code: 'server_error', message: step.message ?? 'The stream hit an error.', param: null });
      res.end();
      return;
    case 'malformed':
      write(res, `event: response.output_text.delta\ndata: ${step.message ?? '{"type": "response.output_text.delta", "delta": '}\n\n`);
      res.end();
      return;
    case 'drop':
      // Once the events so far have reached the client, close the socket without ending the
      // chunked body: the client sees a stream that broke off mid-answer.
      res.write(': dropping\n\n', () => res.socket?.destroy());
      return;
  }
}

async function hang(res: http.ServerResponse, model: string, step: MockHangStep): Promise<void> {
  const id = nextId('resp');
  const sse = new SseWriter(res);
  sse.start();
  sse.send('response.created', { response: responseObject(id, model, 'in_progress', []) });
  if (step.hangInReasoning) {
    const item = nextId('rs');
    sse.send('response.output_item.added', { output_index: 0, item: { id: item, type: 'reasoning', summary: [], encrypted_content: null } });
    for (const delta of step.hangInReasoning) sse.send('response.reasoning_summary_text.delta', { item_id: item, output_index: 0, summary_index: 0, delta });
  } else await streamTextItem(sse, 0, step.hangAfterDeltas.join(''), step.hangAfterDeltas);
  // Nothing more is sent; the connection stays open until the client aborts or the server closes.
}

export async function startMockResponsesServer(options: MockServerOptions = {}): Promise<MockResponsesServer> {
  const queue: MockTurnScript[] = [];
  const requests: RecordedRequest[] = [];

  const handler: http.RequestListener = (req, res) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const url = req.url ?? '';
      const sent = { bytes: 0, finished: false };
      sentOf.set(res, sent);
      res.once('finish', () => (sent.finished = true));
      requests.push({ method: req.method ?? '', path: url, headers: req.headers, body, raw, receivedAt, sent });

      if (req.method !== 'POST' || !url.startsWith('/v1/responses')) {
        sendJson(res, 404, { error: { message: `The mock model service has no route ${req.method} ${url}.`, type: 'not_found' } });
        return;
      }
      const script = queue.shift();
      if (script === undefined) {
        sendJson(res, 500, {
          error: {
            message: 'The mock model service has no scripted answer left: the test enqueued fewer steps than were requested.',
            type: 'server_error',
          },
        });
        return;
      }
      const model = typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'mock-model';
      let step: MockStep;
      try {
        step = typeof script === 'function' ? script(body) : script;
      } catch (error) {
        sendJson(res, 500, { error: { message: `The mock step threw: ${String(error)}`, type: 'server_error' } });
        return;
      }
      if ('httpStatus' in step && step.html !== undefined) sendHtml(res, step.httpStatus, step.html, step.headers);
      else if ('httpStatus' in step && step.bodyBytes !== undefined) {
        sendLongJson(res, step).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
      } else if ('httpStatus' in step)
        sendJson(res, step.httpStatus, step.body ?? { error: { message: `Scripted HTTP ${step.httpStatus}`, type: 'server_error' } }, step.headers);
      else {
        const streaming = 'fail' in step ? fail(res, model, step) : 'hangAfterDeltas' in step ? hang(res, model, step) : answer(res, model, step);
        streaming.catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
      }
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    enqueue: (...steps) => void queue.push(...steps),
    pending: () => queue.length,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging streams and idle keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

function sendJson(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  write(res, text);
  res.end();
}

function sendHtml(res: http.ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  write(res, html);
  res.end();
}

/** A JSON error body of `bodyBytes` bytes, written in chunks as the client reads them; stops when the client goes away. */
async function sendLongJson(res: http.ServerResponse, step: MockHttpStep): Promise<void> {
  const fields = JSON.stringify(step.body ?? { error: { message: `Scripted HTTP ${step.httpStatus}`, type: 'server_error' } });
  const head = `${fields.slice(0, -1)},"padding":"`;
  const tail = '"}';
  const total = Math.max(step.bodyBytes ?? 0, Buffer.byteLength(head) + tail.length);
  res.writeHead(step.httpStatus, { ...step.headers, 'content-type': 'application/json', 'content-length': total });
  write(res, head);
  const chunk = 'x'.repeat(64 * 1024);
  for (let left = total - Buffer.byteLength(head) - tail.length; left > 0 && !res.destroyed; left -= chunk.length) {
    write(res, left >= chunk.length ? chunk : chunk.slice(0, left));
    await drained(res);
  }
  if (res.destroyed) return;
  write(res, tail);
  res.end();
}
