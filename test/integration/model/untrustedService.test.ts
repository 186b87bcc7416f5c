// What a model service may send that Mino must bound or refuse, against the
// loopback mock streaming as a service does (many small chunks, each written
// once the client has read the earlier ones): an error body of many
// megabytes, a redirect, an answer larger than Mino accepts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import { ANSWER_LIMIT_BYTES, ERROR_BODY_LIMIT_BYTES } from '../../../src/main/core/model/limits';
import { ModelError, type HistoryItem, type ModelClient, type ModelStreamEvent } from '../../../src/main/core/model/types';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';

const MiB = 1024 * 1024;
let server: MockResponsesServer;
let client: ModelClient;

beforeEach(async () => {
  server = await startMockResponsesServer();
  client = createModelClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'mock-model', maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

const ask: HistoryItem[] = [{ type: 'message', role: 'user', text: 'go' }];

async function failure(target: ModelClient = client, events: ModelStreamEvent[] = []): Promise<ModelError> {
  const error = await target.respond({ instructions: 'Be brief.', input: ask, tools: [] }, (e) => events.push(e)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

/** Bytes of the text, reasoning and argument deltas that were passed on. */
const deltaBytes = (events: ModelStreamEvent[]) => events.reduce((sum, e) => sum + ('delta' in e ? Buffer.byteLength(e.delta) : 0), 0);

describe('an error body of many megabytes', () => {
  it('is read only up to the limit: the connection is closed, and the message still names the status and what the service said', async () => {
    const planned = 32 * MiB;
    server.enqueue({ httpStatus: 500, body: { error: { message: 'database on fire', type: 'server_error' } }, bodyBytes: planned });
    const error = await failure();
    // The mock never got to write the whole body: Mino closed the connection. What it did write is bounded by
    // the limit plus the socket buffers of the two ends.
    const sent = server.requests[0]!.sent;
    expect(sent.finished).toBe(false);
    expect(sent.bytes).toBeLessThan(planned / 2);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^The model service had a problem of its own \(HTTP 500: /);
    expect(error.message).toContain('database on fire');
    expect(error.message).toContain('not read past the first 64 KiB');
    // Short enough to read: an excerpt, not the 64 KiB that were read.
    expect(error.message.length).toBeLessThan(1_000);
  });

  it('is parsed as today when it is whole within the limit, however long its other fields', async () => {
    server.enqueue({ httpStatus: 503, body: { error: { message: 'try later', type: 'server_error' } }, bodyBytes: ERROR_BODY_LIMIT_BYTES - 1024 });
    const error = await failure();
    expect(error.status).toBe(503);
    expect(error.message).toBe('The model service had a problem of its own (HTTP 503: try later). Wait a moment, then send your message again.');
  });
});

describe('a redirect', () => {
  for (const status of [301, 302, 307, 308]) {
    it(`${status} is named as a redirect with its target, never followed`, async () => {
      const retrying = createModelClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'mock-model', maxRetries: 3, random: () => 0 });
      server.enqueue({ httpStatus: status, headers: { location: 'https://models.example.com/api/v1/responses?token=secret' }, html: '<a href="https://models.example.com/api/v1/responses">Moved</a>' });
      const error = await failure(retrying);
      expect(error.kind).toBe('http');
      expect(error.status).toBe(status);
      expect(error.message).toBe(
        `The model service at ${server.baseURL} answered ${status} (a redirect) to models.example.com; Mino does not follow redirects, so nothing was sent there. ` +
          'If that is your model service, set the base URL in Settings to https://models.example.com/api/v1, then send your message again.',
      );
      // Not followed, not retried.
      expect(server.requests).toHaveLength(1);
    });
  }

  it('to a path on the same service is resolved against it, and nothing is sent to that path', async () => {
    server.enqueue({ httpStatus: 308, headers: { location: '/v2/responses' } });
    const error = await failure();
    const origin = new URL(server.baseURL);
    expect(error.message).toContain(`answered 308 (a redirect) to ${origin.host};`);
    expect(error.message).toContain(`set the base URL in Settings to ${origin.origin}/v2,`);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses']);
  });

  it('without a Location still says it was a redirect', async () => {
    server.enqueue({ httpStatus: 302 });
    const error = await failure();
    expect(error.message).toBe(
      `The model service at ${server.baseURL} answered 302 (a redirect) without saying where to; Mino does not follow redirects. Check the base URL in Settings, then send your message again.`,
    );
  });
});

describe('an answer larger than Mino accepts', () => {
  const tooLarge = /^The model's answer was cut at 4 MiB: text, reasoning and tool-call arguments together may not exceed that in one response/;

  it('streamed as text in many small deltas is stopped at the limit: no more is passed on, the connection is closed', async () => {
    const planned = 24 * MiB;
    server.enqueue({ text: 'a'.repeat(planned), deltaSize: 4096 });
    const events: ModelStreamEvent[] = [];
    const error = await failure(client, events);
    expect(error.kind).toBe('answer_too_large');
    expect(error.message).toMatch(tooLarge);
    expect(error.message).toMatch(/Ask for a smaller step/);
    expect(events.length).toBeGreaterThan(100);
    expect(deltaBytes(events)).toBeLessThanOrEqual(ANSWER_LIMIT_BYTES);
    expect(deltaBytes(events)).toBeGreaterThan(ANSWER_LIMIT_BYTES - 4096);
    const sent = server.requests[0]!.sent;
    expect(sent.finished).toBe(false);
    expect(sent.bytes).toBeLessThan(planned);
  });

  it('counts reasoning and tool-call arguments with the text', async () => {
    server.enqueue({
      reasoning: { summary: 'r'.repeat(2 * MiB), encrypted_content: 'enc', chunk: 4096 },
      text: 't'.repeat(MiB),
      deltaSize: 4096,
      calls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'c'.repeat(2 * MiB) } }],
    });
    const events: ModelStreamEvent[] = [];
    const error = await failure(client, events);
    expect(error.kind).toBe('answer_too_large');
    expect(error.message).toMatch(tooLarge);
    expect(deltaBytes(events)).toBeLessThanOrEqual(ANSWER_LIMIT_BYTES);
  });

  it('is counted in the finished items too, for a service that sends them without deltas', async () => {
    const small = createModelClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'mock-model', maxRetries: 0, answerLimitBytes: 64 * 1024 });
    // One delta of 10 KiB, then finished items carrying 100 KiB: the deltas do not add up to the text, as a service may send them.
    server.enqueue({ text: 'x'.repeat(100 * 1024), deltas: ['x'.repeat(10 * 1024)] });
    const error = await failure(small);
    expect(error.kind).toBe('answer_too_large');
    expect(error.message).toMatch(/^The model's answer was cut at 64 KiB/);
  });

  it('stops a single event too long for any answer within the limit before it is parsed', async () => {
    const tiny = createModelClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'mock-model', maxRetries: 0, answerLimitBytes: 4 * 1024 });
    // Deltas of 1 KiB, then an output_text.done event of 100 KiB: longer than four times the limit plus the request.
    server.enqueue({ text: 'x'.repeat(100 * 1024), deltas: ['x'.repeat(1024)] });
    const error = await failure(tiny);
    expect(error.kind).toBe('answer_too_large');
    expect(error.message).toMatch(/sent a single event of more than \d+ characters, more than any answer Mino accepts \(4 KiB\), so Mino stopped reading it/);
  });

  it('leaves an answer under the limit whole', async () => {
    server.enqueue({ text: 'b'.repeat(MiB), deltaSize: 4096, usage: { input_tokens: 3, output_tokens: 2 } });
    const events: ModelStreamEvent[] = [];
    const response = await client.respond({ instructions: '', input: ask, tools: [] }, (e) => events.push(e));
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'b'.repeat(MiB) }]);
    expect(deltaBytes(events)).toBe(MiB);
    expect(server.requests[0]!.sent.finished).toBe(true);
  });
});
