// The `anthropic` wire (Anthropic Messages through @anthropic-ai/sdk) against
// a loopback service that streams as the real one does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient, type ModelClientOptions } from '../../../src/main/core/model/client';
import type { HistoryItem, ModelClient, ToolSpec } from '../../../src/main/core/model/types';
import { startMockAnthropicServer, type MockAnthropicServer } from '../../support/mockAnthropicServer';
import { ask, collect, expectModelError } from './fixtures/wireCalls';

const API_KEY = 'sk-ant-secret-0123456789';
const READ_FILE: ToolSpec = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };
const EPHEMERAL = { type: 'ephemeral' };
let server: MockAnthropicServer;
let client: ModelClient;

const anthropicClient = (extra: Partial<ModelClientOptions> = {}) =>
  createModelClient({ protocol: 'anthropic', baseURL: server.baseURL, apiKey: API_KEY, model: 'claude-mock', maxRetries: 0, env: {}, ...extra });

beforeEach(async () => {
  server = await startMockAnthropicServer();
  client = anthropicClient();
});
afterEach(async () => {
  await server.close();
});

async function respond(input: HistoryItem[], options: { tools?: ToolSpec[]; target?: ModelClient; effort?: 'low' | 'high'; reasoning?: boolean } = {}) {
  const reasoning = options.effort ? { reasoning: { effort: options.effort } } : options.reasoning ? { reasoning: {} } : {};
  return collect(options.target ?? client, { instructions: 'Be brief.', input, tools: options.tools ?? [], ...reasoning });
}

describe('the anthropic wire', () => {
  it('streams the text, returns it with the usage (cache counts in the input), and sends the key the Anthropic way', async () => {
    server.enqueue({ text: 'Hello from Claude.', id: 'msg_1', usage: { input_tokens: 5, cache_creation_tokens: 100, cached_tokens: 900, output_tokens: 7 } });
    const { response, events } = await respond(ask('hi'));
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(2);
    expect(events.map((e) => ('delta' in e ? e.delta : '')).join('')).toBe('Hello from Claude.');
    expect(response).toEqual({
      id: 'msg_1',
      output: [{ type: 'message', role: 'assistant', text: 'Hello from Claude.' }],
      usage: { inputTokens: 1005, outputTokens: 7, cachedInputTokens: 900 },
    });
    const { body, path, headers } = server.requests[0]!;
    expect(path).toBe('/v1/messages');
    expect(headers['x-api-key']).toBe(API_KEY);
    expect(headers['anthropic-version']).toBeTruthy();
    expect(body).toEqual({
      model: 'claude-mock',
      max_tokens: 32000,
      system: [{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] }],
      stream: true,
    });
  });

  it('accepts a base URL ending in /v1, as the other wires write theirs', async () => {
    server.enqueue({ text: 'ok' });
    await respond(ask('hi'), { target: anthropicClient({ baseURL: `${server.baseURL}/v1` }) });
    expect(server.requests[0]!.path).toBe('/v1/messages');
  });

  it('assembles tool_use input from its fragments and sends the call and its result back, merged into alternating turns', async () => {
    server.enqueue({ text: 'Reading.', calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'toolu_1' }, { name: 'read_file', arguments: { path: 'go.mod' }, call_id: 'toolu_2' }] }, { text: 'Done.' });
    const first = await respond(ask('read'), { tools: [READ_FILE] });
    expect(first.response.output).toEqual([
      { type: 'message', role: 'assistant', text: 'Reading.' },
      { type: 'function_call', call_id: 'toolu_1', name: 'read_file', arguments: '{"path":"greet.go"}' },
      { type: 'function_call', call_id: 'toolu_2', name: 'read_file', arguments: '{"path":"go.mod"}' },
    ]);
    const results: HistoryItem[] = [
      { type: 'function_call_output', call_id: 'toolu_1', output: 'package main' },
      { type: 'function_call_output', call_id: 'toolu_2', output: 'module greet' },
    ];
    await respond([...ask('read'), ...first.response.output, ...results], { tools: [READ_FILE] });
    const { body } = server.requests[1]!;
    expect(body.tools).toEqual([{ name: 'read_file', description: 'Reads a file.', input_schema: READ_FILE.parameters, cache_control: EPHEMERAL }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'greet.go' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'go.mod' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'package main' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'module greet', cache_control: EPHEMERAL },
        ],
      },
    ]);
  });

  it('asks for thinking sized from the effort, and sends thinking blocks back in place with their signatures unchanged', async () => {
    const signature = 'EqQBCkYIBxgCKkBsignature+/=0123456789abcdefghijklmnop';
    server.enqueue(
      { reasoning: { text: 'Read greet.go first.', signature }, redactedThinking: 'ENCRYPTED-REDACTED', calls: [{ name: 'read_file', arguments: { path: 'greet.go' }, call_id: 'toolu_t' }] },
      { text: 'ok' },
    );
    const first = await respond(ask('fix'), { tools: [READ_FILE], effort: 'high' });
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24000 });
    expect(first.events.filter((e) => e.type === 'reasoning_delta').map((e) => ('delta' in e ? e.delta : '')).join('')).toBe('Read greet.go first.');
    expect(first.response.output.map((item) => item.type)).toEqual(['reasoning', 'reasoning', 'function_call']);
    await respond([...ask('fix'), ...first.response.output, { type: 'function_call_output', call_id: 'toolu_t', output: 'x' }], { tools: [READ_FILE], reasoning: true });
    const sent = server.requests[1]!.body;
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read greet.go first.', signature },
        { type: 'redacted_thinking', data: 'ENCRYPTED-REDACTED' },
        { type: 'tool_use', id: 'toolu_t', name: 'read_file', input: { path: 'greet.go' } },
      ],
    });
  });

  it('fails an answer cut at max_tokens as incomplete', async () => {
    server.enqueue({ text: 'Half', finish: 'max_tokens' });
    await expectModelError(respond(ask('long')), 'incomplete');
  });
});

describe('the anthropic wire fails', () => {
  const error = (status: number, type: string, message: string) => ({ httpStatus: status, body: { type: 'error', error: { type, message } } });
  it.each([
    ['a 401 as the key', error(401, 'authentication_error', 'invalid x-api-key'), /refused the API key \(HTTP 401: invalid x-api-key\)/],
    ['a 404 for the model as the model', error(404, 'not_found_error', 'model: claude-nope'), /does not know the model \(HTTP 404: model: claude-nope\)/],
    ['a 529 as the service\'s own problem', error(529, 'overloaded_error', 'Overloaded'), /problem of its own \(HTTP 529: Overloaded\)/],
  ])('%s', async (_name, step, message) => {
    server.enqueue(step);
    const failed = await expectModelError(respond(ask('hi')), 'http');
    expect(failed.message).toMatch(message);
  });

  it('a prompt longer than the context window as context_length', async () => {
    server.enqueue(error(400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'));
    await expectModelError(respond(ask('huge')), 'context_length');
  });

  it('an HTML page answered with 200 as a page, not the Anthropic Messages API', async () => {
    server.enqueue({ httpStatus: 200, html: '<html>login</html>' });
    const failed = await expectModelError(respond(ask('hi')), 'http');
    expect(failed.message).toMatch(/does not seem to speak the Anthropic Messages API/);
  });

  it('an error event inside the stream, with its message', async () => {
    server.enqueue({ fail: 'error', message: 'Overloaded' });
    const failed = await expectModelError(respond(ask('hi')), 'stream');
    expect(failed.message).toMatch(/reported an error while answering: Overloaded/);
  });

  it('a malformed event as a stream it could not read', async () => {
    server.enqueue({ fail: 'malformed' });
    await expectModelError(respond(ask('hi')), 'stream');
  });

  it.each(['drop', 'unfinished'] as const)('a stream without message_stop (%s) as a dropped answer', async (fail) => {
    server.enqueue({ fail });
    const failed = await expectModelError(respond(ask('hi')), 'stream');
    expect(failed.message).toMatch(/closed before the answer was complete/);
  });
});

describe('the anthropic wire, over time', () => {
  it('retries a 529 before the stream began, announcing it, and not once streaming', async () => {
    server.enqueue(error529(), { text: 'Second time.' }, { fail: 'drop' }, { text: 'never asked for' });
    const retrying = anthropicClient({ maxRetries: 1, random: () => 0 });
    const { response, events } = await respond(ask('hi'), { target: retrying });
    expect(events[0]).toMatchObject({ type: 'retry', attempt: 2 });
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'Second time.' }]);
    await expectModelError(respond(ask('again'), { target: retrying }), 'stream');
    expect(server.requests).toHaveLength(3);
  });

  it('stops a stream that goes silent after the idle timeout, and at the person\'s abort', async () => {
    server.enqueue({ hangAfterDeltas: ['Hel'] }, { hangAfterDeltas: ['One', 'Two'] });
    const silent = await expectModelError(respond(ask('hi'), { target: anthropicClient({ streamIdleTimeoutMs: 200 }) }), 'stream');
    expect(silent.message).toMatch(/stopped sending/);
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = client.respond({ instructions: '', input: ask('hi'), tools: [], signal: controller.signal }, (e) => {
      if ('delta' in e) seen.push(e.delta);
      if (seen.length === 2) controller.abort();
    });
    await expectModelError(pending, 'aborted');
    expect(seen).toEqual(['One', 'Two']);
  });
});

function error529() {
  return { httpStatus: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
}
