// The `chat` wire (OpenAI Chat Completions through the openai SDK) against a
// loopback service that streams as the real ones do.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientOptions } from '../../../src/main/core/model/client';
import { type HistoryItem, type ModelClient, type ModelStreamEvent, type ToolSpec } from '../../../src/main/core/model/types';
import { startMockChatServer, type MockChatServer } from '../../support/mockChatServer';
import { ask, collect, expectModelError } from './fixtures/wireCalls';

const API_KEY = 'sk-chat-secret-0123456789';
const READ_FILE: ToolSpec = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };
let server: MockChatServer;
let client: ModelClient;

const chatClient = (extra: Partial<ModelClientOptions> = {}) =>
  createModelClient({ protocol: 'chat', baseURL: server.baseURL, apiKey: API_KEY, model: 'mock-chat', maxRetries: 0, env: {}, ...extra });

beforeEach(async () => {
  server = await startMockChatServer();
  client = chatClient();
});
afterEach(async () => {
  await server.close();
});

async function respond(input: HistoryItem[], options: { tools?: ToolSpec[]; signal?: AbortSignal; target?: ModelClient; reasoning?: boolean } = {}) {
  return collect(options.target ?? client, { instructions: 'Be brief.', input, tools: options.tools ?? [], ...(options.signal ? { signal: options.signal } : {}), ...(options.reasoning ? { reasoning: {} } : {}) });
}

describe('the chat wire', () => {
  it('streams the text as it arrives and returns it with the usage, asking for usage and storing nothing', async () => {
    server.enqueue({ text: 'Hello from chat.', id: 'chatcmpl_1', usage: { input_tokens: 12, output_tokens: 4, cached_tokens: 8 } });
    const { response, events } = await respond(ask('hi'));
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(2);
    expect(events.map((e) => ('delta' in e ? e.delta : '')).join('')).toBe('Hello from chat.');
    expect(response).toEqual({
      id: 'chatcmpl_1',
      output: [{ type: 'message', role: 'assistant', text: 'Hello from chat.' }],
      usage: { inputTokens: 12, outputTokens: 4, cachedInputTokens: 8 },
    });
    const { body, path, headers } = server.requests[0]!;
    expect(path).toBe('/v1/chat/completions');
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(body).toEqual({ model: 'mock-chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
  });

  it('assembles a tool call from its fragments, and sends the call and its result back as the API expects', async () => {
    server.enqueue({ text: 'Reading.', calls: [{ name: 'read_file', arguments: { path: 'src/greet.go' }, call_id: 'call_1' }] }, { text: 'Done.' });
    const first = await respond(ask('read greet.go'), { tools: [READ_FILE] });
    expect(first.response.output).toEqual([
      { type: 'message', role: 'assistant', text: 'Reading.' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"src/greet.go"}' },
    ]);
    const history: HistoryItem[] = [...ask('read greet.go'), ...first.response.output, { type: 'function_call_output', call_id: 'call_1', output: 'package main' }];
    await respond(history, { tools: [READ_FILE] });
    const { body } = server.requests[1]!;
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: READ_FILE.parameters } }]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'read greet.go' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/greet.go"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'package main' },
    ]);
    expect(body).not.toHaveProperty('store');
  });

  it('keeps reasoning_content as a reasoning item and sends it back unchanged on its assistant message', async () => {
    const thought = 'The user wants greet.go; read it first.';
    server.enqueue({ reasoning: { text: thought }, calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'call_r' }], usage: { input_tokens: 20, output_tokens: 9, reasoning_tokens: 6 } }, { text: 'ok' });
    const first = await respond(ask('fix greet.go'), { tools: [READ_FILE], reasoning: true });
    expect(first.events.filter((e) => e.type === 'reasoning_delta').map((e) => ('delta' in e ? e.delta : '')).join('')).toBe(thought);
    expect(first.response.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: thought }] });
    expect(first.response.usage).toEqual({ inputTokens: 20, outputTokens: 9, reasoningTokens: 6 });
    await respond([...ask('fix greet.go'), ...first.response.output, { type: 'function_call_output', call_id: 'call_r', output: 'x' }], { tools: [READ_FILE] });
    expect(server.requests[1]!.body.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: thought,
      tool_calls: [{ id: 'call_r', type: 'function', function: { name: 'read_file', arguments: '{"path":"greet.go"}' } }],
    });
  });

  it('sends no reasoning another wire produced', async () => {
    server.enqueue({ text: 'ok' });
    const foreign: HistoryItem = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'secret' }], encrypted_content: 'gAAAA' };
    await respond([...ask('a'), foreign, { type: 'message', role: 'assistant', text: 'b' }, ...ask('c')]);
    expect(server.requests[0]!.raw).not.toContain('gAAAA');
    expect(server.requests[0]!.body.messages[2]).toEqual({ role: 'assistant', content: 'b' });
  });

  it('fails an answer cut at the output limit as incomplete', async () => {
    server.enqueue({ text: 'Half an ans', finish: 'length' });
    const error = await expectModelError(respond(ask('long')), 'incomplete');
    expect(error.message).toMatch(/output limit/);
  });
});

describe('the chat wire fails', () => {
  it.each([
    ['a 401 as the key', { httpStatus: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } }, /refused the API key \(HTTP 401: Incorrect API key provided\.\)/],
    ['a 404 for the model as the model', { httpStatus: 404, body: { error: { message: 'The model `nope` does not exist.', type: 'invalid_request_error', code: 'model_not_found' } } }, /does not know the model .*Check the model name/],
    ['a 500 as the service\'s own problem', { httpStatus: 500, body: { error: { message: 'database on fire', type: 'server_error' } } }, /problem of its own \(HTTP 500: database on fire\)/],
    ['a model without tools as such', { httpStatus: 400, body: { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools' } } }, /does not support tool calling/],
  ])('%s', async (_name, step, message) => {
    server.enqueue(step);
    const error = await expectModelError(respond(ask('hi'), { tools: [READ_FILE] }), 'http');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(API_KEY);
  });

  it('a prompt longer than the context window as context_length', async () => {
    server.enqueue({ httpStatus: 400, body: { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } } });
    await expectModelError(respond(ask('huge')), 'context_length');
  });

  it('a base URL that leads nowhere as a 404 naming the Chat Completions API', async () => {
    const lost = chatClient({ baseURL: server.baseURL.replace(/\/v1$/, '/api') });
    const error = await expectModelError(respond(ask('hi'), { target: lost }), 'http');
    expect(error.message).toMatch(/HTTP 404.*the Chat Completions API/);
  });

  it('an HTML page answered with 200 as a page, not the API', async () => {
    server.enqueue({ httpStatus: 200, html: '<html><body>Welcome</body></html>' });
    const error = await expectModelError(respond(ask('hi')), 'http');
    expect(error.message).toMatch(/answered with an HTML page \(HTTP 200\).*does not seem to speak the Chat Completions API/);
  });

  it('an error reported inside the stream, with its message', async () => {
    server.enqueue({ fail: 'error', message: 'Upstream overloaded.' });
    const error = await expectModelError(respond(ask('hi')), 'stream');
    expect(error.message).toMatch(/reported an error while answering: Upstream overloaded\./);
  });

  it('a malformed chunk as a stream it could not read', async () => {
    server.enqueue({ fail: 'malformed' });
    const error = await expectModelError(respond(ask('hi')), 'stream');
    expect(error.message).toMatch(/could not read \(an event that is not valid JSON\)/);
  });

  it.each(['drop', 'unfinished'] as const)('a stream that ends before a finish_reason (%s) as a dropped answer', async (fail) => {
    server.enqueue({ fail });
    const error = await expectModelError(respond(ask('hi')), 'stream');
    expect(error.message).toMatch(/closed before the answer was complete/);
  });

  it('a redirect to another host, naming it, without following', async () => {
    server.enqueue({ httpStatus: 307, headers: { location: 'https://elsewhere.example/v1/chat/completions' } });
    const error = await expectModelError(respond(ask('hi')), 'http');
    expect(error.message).toMatch(/redirect\) to elsewhere\.example/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the chat wire, over time', () => {
  it('retries a 500 before the stream began, announcing it, then answers', async () => {
    server.enqueue({ httpStatus: 500, body: { error: { message: 'try later' } } }, { text: 'Second time.' });
    const retrying = chatClient({ maxRetries: 1, random: () => 0 });
    const { response, events } = await respond(ask('hi'), { target: retrying });
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 2, attempts: 2 });
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'Second time.' }]);
  });

  it('does not retry a stream that broke after it began', async () => {
    server.enqueue({ fail: 'drop' }, { text: 'never asked for' });
    await expectModelError(respond(ask('hi'), { target: chatClient({ maxRetries: 3, random: () => 0 }) }), 'stream');
    expect(server.requests).toHaveLength(1);
  });

  it('stops at the person\'s abort, after the deltas already streamed', async () => {
    server.enqueue({ hangAfterDeltas: ['Thinking', ' hard'] });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const pending = client.respond({ instructions: '', input: ask('hi'), tools: [], signal: controller.signal }, (e) => {
      events.push(e);
      if (events.length === 2) controller.abort();
    });
    await expectModelError(pending, 'aborted');
    expect(events.map((e) => ('delta' in e ? e.delta : ''))).toEqual(['Thinking', ' hard']);
  });

  it('stops a stream that goes silent after the idle timeout and says so', async () => {
    server.enqueue({ hangAfterDeltas: ['Hel'] });
    const error = await expectModelError(respond(ask('hi'), { target: chatClient({ streamIdleTimeoutMs: 200 }) }), 'stream');
    expect(error.message).toMatch(/stopped sending: nothing arrived for 200 ms/);
  });
});
