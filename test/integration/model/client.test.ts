import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import { type HistoryItem, type ModelClient, type ModelStreamEvent } from '../../../src/main/core/model/types';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';
import { ask, collect, expectModelError } from './fixtures/wireCalls';

const API_KEY = 'sk-test-secret-key-0123456789';
let server: MockResponsesServer;
let client: ModelClient;

beforeEach(async () => {
  server = await startMockResponsesServer();
  client = createModelClient({ baseURL: server.baseURL, apiKey: API_KEY, model: 'mock-model', maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

async function respondCollecting(input: HistoryItem[], signal?: AbortSignal, target: ModelClient = client) {
  return collect(target, { instructions: 'Be brief.', input, tools: [], signal });
}

describe('model client over a real loopback Responses stream', () => {
  it('streams text deltas in order and returns the assembled assistant message with usage', async () => {
    server.enqueue({ text: 'Hello from the model.', id: 'resp_1', usage: { input_tokens: 7, output_tokens: 4 } });
    const { response, events } = await respondCollecting(ask('hi'));
    expect(events.length).toBeGreaterThan(1);
    expect(events.map((e) => ('delta' in e ? e.delta : '')).join('')).toBe('Hello from the model.');
    expect(response).toEqual({
      id: 'resp_1',
      output: [{ type: 'message', role: 'assistant', text: 'Hello from the model.' }],
      usage: { inputTokens: 7, outputTokens: 4 },
    });
  });

  it('assembles function calls after text, in the order the model produced them', async () => {
    server.enqueue({
      text: 'Reading.',
      calls: [
        { name: 'read_file', arguments: { path: 'src/a.ts' }, call_id: 'call_a' },
        { name: 'list_dir', arguments: '{"path":"."}', call_id: 'call_b' },
      ],
    });
    const { response } = await respondCollecting(ask('read a'));
    expect(response.output).toEqual([
      { type: 'message', role: 'assistant', text: 'Reading.' },
      { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
      { type: 'function_call', call_id: 'call_b', name: 'list_dir', arguments: '{"path":"."}' },
    ]);
  });

  it('sends the tools, the instructions and the mapped history with stream on and store off', async () => {
    server.enqueue({ text: 'ok' });
    const input: HistoryItem[] = [
      { type: 'message', role: 'user', text: 'first' },
      { type: 'message', role: 'assistant', text: 'calling' },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"status":"completed","output":"A"}' },
      { type: 'message', role: 'user', text: 'second' },
    ];
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
    await client.respond({ instructions: 'SOUL', input, tools: [{ name: 'read_file', description: 'Reads a file.', parameters }] }, () => {});

    expect(server.requests).toHaveLength(1);
    const { body, path, headers } = server.requests[0]!;
    expect(path).toBe('/v1/responses');
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(body).toMatchObject({ model: 'mock-model', instructions: 'SOUL', stream: true, store: false });
    expect(body.tools).toEqual([{ type: 'function', name: 'read_file', description: 'Reads a file.', parameters, strict: false }]);
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: 'first' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling', annotations: [] }] },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"status":"completed","output":"A"}' },
      { type: 'message', role: 'user', content: 'second' },
    ]);
  });

  it('refuses an unpaired history without any request reaching the server', async () => {
    const input: HistoryItem[] = [
      ...ask('go'),
      { type: 'function_call', call_id: 'c_open', name: 'bash', arguments: '{}' },
      { type: 'message', role: 'user', text: 'next' },
    ];
    const error = await expectModelError(respondCollecting(input), 'unpaired_history');
    expect(error.message).toContain('c_open');
    expect(server.requests).toHaveLength(0);
  });

  it('reports response.failed as kind "failed" with the service message', async () => {
    server.enqueue({ fail: 'failed', message: 'Model overloaded' });
    const error = await expectModelError(respondCollecting(ask('x')), 'failed');
    expect(error.message).toContain('Model overloaded');
  });

  it('reports response.incomplete as kind "incomplete" with the reason explained', async () => {
    server.enqueue({ fail: 'incomplete' });
    const error = await expectModelError(respondCollecting(ask('x')), 'incomplete');
    expect(error.message).toContain('output limit');
  });

  it('reports an SSE error event as kind "stream" with the service message', async () => {
    server.enqueue({ fail: 'error', message: 'upstream exploded' });
    const error = await expectModelError(respondCollecting(ask('x')), 'stream');
    expect(error.message).toContain('upstream exploded');
  });

  it('reports a connection dropped before response.completed as kind "stream"', async () => {
    server.enqueue({ fail: 'drop' });
    const deltas: string[] = [];
    const pending = client.respond({ instructions: '', input: ask('x'), tools: [] }, (e) => 'delta' in e && deltas.push(e.delta));
    const error = await expectModelError(pending, 'stream');
    expect(deltas).toEqual(['Par', 'tial']);
    expect(error.message).toMatch(/closed before the answer was complete/);
  });

  it('reports HTTP 500 as the service\'s own problem, with its message, without blaming the API key', async () => {
    server.enqueue({ httpStatus: 500, body: { error: { message: 'database on fire', type: 'server_error' } } });
    const error = await expectModelError(respondCollecting(ask('x')), 'http');
    expect(error.status).toBe(500);
    expect(error.message).toBe('The model service had a problem of its own (HTTP 500: database on fire). Wait a moment, then send your message again.');
    expect(error.message).not.toMatch(/API key/);
  });

  it('stops a stream that goes silent after the idle timeout, keeping the deltas that arrived, and says the service stopped sending', async () => {
    // Long enough that the paced deltas always arrive within it on a loaded machine; the stream then hangs for good.
    const impatient = createModelClient({ baseURL: server.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0, streamIdleTimeoutMs: 2_000 });
    server.enqueue({ hangAfterDeltas: ['Thinking', ' about it'] });
    const events: ModelStreamEvent[] = [];
    const error = await expectModelError(impatient.respond({ instructions: '', input: ask('x'), tools: [] }, (e) => events.push(e)), 'stream');
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Thinking' },
      { type: 'text_delta', delta: ' about it' },
    ]);
    expect(error.message).toMatch(/^The model service at .* stopped sending: nothing arrived for 2 seconds/);
    expect(error.message).toMatch(/Stream idle timeout/);
  });

  it('also stops waiting when the service never starts its answer', async () => {
    // A server that accepts the request and never answers its headers.
    const silent = await import('node:http').then(({ createServer }) => createServer(() => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const never = createModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, model: 'm', maxRetries: 0, streamIdleTimeoutMs: 300 });
    try {
      const error = await expectModelError(never.respond({ instructions: '', input: ask('x'), tools: [] }, () => undefined), 'stream');
      expect(error.message).toMatch(/stopped sending/);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('a person\'s abort during a silent stream is still an abort, not a timeout', async () => {
    const impatient = createModelClient({ baseURL: server.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0, streamIdleTimeoutMs: 5_000 });
    server.enqueue({ hangAfterDeltas: ['Hi'] });
    const controller = new AbortController();
    const pending = impatient.respond({ instructions: '', input: ask('x'), tools: [], signal: controller.signal }, () => controller.abort());
    await expectModelError(pending, 'aborted');
  });

  it('reports malformed SSE as a stream it could not read, not as network trouble, and prints nothing', async () => {
    server.enqueue({ fail: 'malformed' });
    const printed: unknown[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation((...args) => void printed.push(args)));
    try {
      const error = await expectModelError(respondCollecting(ask('x')), 'stream');
      expect(error.message).toMatch(/sent a stream Mino could not read \(an event that is not valid JSON\)/);
      expect(error.message).not.toMatch(/network/);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(printed).toEqual([]);
  });

  it('reports an HTML page answered with 200 as an HTML page, pointing at the base URL', async () => {
    server.enqueue({ httpStatus: 200, html: '<!doctype html><html><body>Welcome to our site</body></html>' });
    const error = await expectModelError(respondCollecting(ask('x')), 'http');
    expect(error.message).toMatch(/answered with an HTML page \(HTTP 200\) instead of a stream of events/);
    expect(error.message).toMatch(/Check the base URL in Settings/);
    expect(error.message).not.toMatch(/network/);
  });

  it('retries HTTP 500 as configured before giving up', async () => {
    const retrying = createModelClient({ baseURL: server.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 1 });
    server.enqueue({ httpStatus: 500 }, { text: 'second try worked' });
    const { response } = await respondCollecting(ask('x'), undefined, retrying);
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'second try worked' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports HTTP 401 as kind "http" pointing at the API key, without echoing the key', async () => {
    server.enqueue({ httpStatus: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const error = await expectModelError(respondCollecting(ask('x')), 'http');
    expect(error.status).toBe(401);
    expect(error.message).toContain('Check the API key in Settings');
    expect(error.message).not.toContain(API_KEY);
  });

  it('reports an under-scripted mock (empty queue) as a loud HTTP 500', async () => {
    const error = await expectModelError(respondCollecting(ask('x')), 'http');
    expect(error.message).toContain('no scripted answer left');
  });

  it('reports a user abort mid-stream as kind "aborted" after the deltas already streamed', async () => {
    server.enqueue({ hangAfterDeltas: ['Thinking', ' hard'] });
    const controller = new AbortController();
    const events: string[] = [];
    const pending = client.respond({ instructions: '', input: ask('x'), tools: [], signal: controller.signal }, (e) => {
      if ('delta' in e) events.push(e.delta);
      if (events.length === 2) controller.abort();
    });
    await expectModelError(pending, 'aborted');
    expect(events).toEqual(['Thinking', ' hard']);
  });

  it('reports an already-aborted signal as kind "aborted" without sending a request', async () => {
    const controller = new AbortController();
    controller.abort();
    await expectModelError(respondCollecting(ask('x'), controller.signal), 'aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('answers with a script function that sees the request body', async () => {
    server.enqueue((body: { input: Array<{ content?: unknown }> }) => ({ text: `you said ${String(body.input[0]?.content)}` }));
    const { response } = await respondCollecting(ask('ping'));
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'you said ping' }]);
  });

  it('reports a missing API key as kind "config" without sending a request', async () => {
    const unconfigured = createModelClient({ baseURL: server.baseURL, apiKey: '', model: 'm' });
    const error = await expectModelError(respondCollecting(ask('x'), undefined, unconfigured), 'config');
    expect(error.message).toContain('Settings');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a base URL that is not http or https as kind "config" without sending anything', async () => {
    const elsewhere = createModelClient({ baseURL: 'file:///etc/v1', apiKey: API_KEY, model: 'm', maxRetries: 0 });
    const error = await expectModelError(respondCollecting(ask('x'), undefined, elsewhere), 'config');
    expect(error.message).toContain('not an http or https URL');
  });

  it('sends the organization and project headers only when they are set', async () => {
    const scoped = createModelClient({ baseURL: server.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0, organization: 'org_9', project: 'proj_9' });
    server.enqueue({ text: 'a' }, { text: 'b' });
    await respondCollecting(ask('x'), undefined, scoped);
    await respondCollecting(ask('x'));
    expect(server.requests.map((r) => [r.headers['openai-organization'], r.headers['openai-project'], r.headers.authorization])).toEqual([
      ['org_9', 'proj_9', `Bearer ${API_KEY}`],
      [undefined, undefined, `Bearer ${API_KEY}`],
    ]);
  });

  it('reports an unreachable service as kind "http" naming the base URL', async () => {
    const url = server.baseURL;
    await server.close();
    const offline = createModelClient({ baseURL: url, apiKey: API_KEY, model: 'm', maxRetries: 0 });
    const error = await expectModelError(respondCollecting(ask('x'), undefined, offline), 'http');
    expect(error.message).toContain(url);
    server = await startMockResponsesServer(); // afterEach closes it
  });
});
