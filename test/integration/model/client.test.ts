import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import { ModelError, type HistoryItem, type ModelClient, type ModelStreamEvent } from '../../../src/main/core/model/types';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';

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

const ask = (text: string): HistoryItem[] => [{ type: 'message', role: 'user', text }];

async function respondCollecting(input: HistoryItem[], signal?: AbortSignal, target: ModelClient = client) {
  const events: ModelStreamEvent[] = [];
  const response = await target.respond({ instructions: 'Be brief.', input, tools: [], signal }, (e) => events.push(e));
  return { response, events };
}

async function expectModelError(promise: Promise<unknown>, kind: ModelError['kind']): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  expect((error as ModelError).kind).toBe(kind);
  return error as ModelError;
}

describe('model client over a real loopback Responses stream', () => {
  it('streams text deltas in order and returns the assembled assistant message with usage', async () => {
    server.enqueue({ text: 'Hello from the model.', id: 'resp_1', usage: { input_tokens: 7, output_tokens: 4 } });
    const { response, events } = await respondCollecting(ask('hi'));
    expect(events.length).toBeGreaterThan(1);
    expect(events.map((e) => e.delta).join('')).toBe('Hello from the model.');
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
    const pending = client.respond({ instructions: '', input: ask('x'), tools: [] }, (e) => deltas.push(e.delta));
    const error = await expectModelError(pending, 'stream');
    expect(deltas).toEqual(['Par', 'tial']);
    expect(error.message).toMatch(/closed before the answer was complete/);
  });

  it('reports HTTP 500 as kind "http" with status, service message and what to check', async () => {
    server.enqueue({ httpStatus: 500, body: { error: { message: 'database on fire', type: 'server_error' } } });
    const error = await expectModelError(respondCollecting(ask('x')), 'http');
    expect(error.status).toBe(500);
    expect(error.message).toBe(
      'The model service returned HTTP 500: database on fire. Check the base URL and API key in Settings, then send your message again.',
    );
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
      events.push(e.delta);
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

  it('reports an unreachable service as kind "http" naming the base URL', async () => {
    const url = server.baseURL;
    await server.close();
    const offline = createModelClient({ baseURL: url, apiKey: API_KEY, model: 'm', maxRetries: 0 });
    const error = await expectModelError(respondCollecting(ask('x'), undefined, offline), 'http');
    expect(error.message).toContain(url);
    server = await startMockResponsesServer(); // afterEach closes it
  });
});
