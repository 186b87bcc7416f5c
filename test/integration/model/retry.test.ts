// Mino's own retries of a model request that failed before its stream began,
// against the loopback mock: each retry is announced with its wait, the
// service's Retry-After is honoured, attempts are bounded, and what cannot
// pass on a second try (400, 401) is not tried again.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import { createModelClient, type ModelClientOptions } from '../../../src/main/core/model/client';
import { ModelError, type HistoryItem, type ModelStreamEvent } from '../../../src/main/core/model/types';
import { eventRecorder, makeAgentFixture, recordingApprover } from '../../support/agentFixture';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';

let server: MockResponsesServer;

beforeEach(async () => {
  server = await startMockResponsesServer();
});

afterEach(async () => {
  await server.close();
});

const input: HistoryItem[] = [{ type: 'message', role: 'user', text: 'hi' }];
const noJitter = () => 0;

function clientWith(options: Partial<ModelClientOptions> = {}) {
  return createModelClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'mock-model', random: noJitter, ...options });
}

async function respond(client = clientWith(), signal?: AbortSignal) {
  const events: ModelStreamEvent[] = [];
  const outcome = await client.respond({ instructions: '', input, tools: [], signal }, (event) => events.push(event)).then(
    (response) => ({ response, error: null }),
    (error: unknown) => ({ response: null, error: error as ModelError }),
  );
  return { ...outcome, events, retries: events.filter((event) => event.type === 'retry') };
}

const gap = (a: number, b: number) => server.requests[b]!.receivedAt - server.requests[a]!.receivedAt;

describe('retries of a model request', () => {
  it('waits as long as a 429 says in Retry-After, saying so, then returns the answer', async () => {
    server.enqueue({ httpStatus: 429, headers: { 'retry-after': '1' } }, { text: 'after the wait' });
    const { response, retries } = await respond();
    expect(response?.output).toEqual([{ type: 'message', role: 'assistant', text: 'after the wait' }]);
    expect(retries).toEqual([
      { type: 'retry', message: 'The model service answered 429 (rate limited); retrying in 1 s (attempt 2 of 4).', attempt: 2, attempts: 4, delayMs: 1000 },
    ]);
    expect(server.requests).toHaveLength(2);
    expect(gap(0, 1)).toBeGreaterThanOrEqual(950);
  });

  it('honours retry-after-ms, and the SDK itself sends nothing again', async () => {
    server.enqueue({ httpStatus: 503, headers: { 'retry-after-ms': '250' } }, { text: 'ok' });
    const { response, retries } = await respond();
    expect(response).not.toBeNull();
    expect(retries.map((event) => event.type === 'retry' && event.message)).toEqual([
      'The model service answered 503 (unavailable); retrying in 0.3 s (attempt 2 of 4).',
    ]);
    expect(retries[0]).toMatchObject({ delayMs: 250 });
    expect(server.requests).toHaveLength(2);
    expect(gap(0, 1)).toBeGreaterThanOrEqual(240);
  });

  it('backs off exponentially without Retry-After and gives up after the last attempt with the service\'s error', async () => {
    server.enqueue({ httpStatus: 500 }, { httpStatus: 502 }, { httpStatus: 500 });
    const { error, retries } = await respond(clientWith({ maxRetries: 2 }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.status).toBe(500);
    expect(error?.message).toContain('The model service had a problem of its own (HTTP 500');
    // Waiting and sending again is what the retries did: the advice is what is left to do.
    expect(error?.message).not.toContain('Wait a moment');
    expect(error?.message).toMatch(/It failed on every attempt, each after a longer wait\. The service may be down or overloaded: try again in a few minutes, or check its status page\.$/);
    expect(retries).toEqual([
      { type: 'retry', message: 'The model service answered 500 (server error); retrying in 0.5 s (attempt 2 of 3).', attempt: 2, attempts: 3, delayMs: 500 },
      { type: 'retry', message: 'The model service answered 502 (bad gateway); retrying in 1 s (attempt 3 of 3).', attempt: 3, attempts: 3, delayMs: 1000 },
    ]);
    expect(server.requests).toHaveLength(3);
    expect(server.pending()).toBe(0);
  });

  it.each([
    [400, 'The model service refused the request (HTTP 400'],
    [401, 'The model service refused the API key (HTTP 401'],
  ])('does not retry HTTP %i', async (status, words) => {
    server.enqueue({ httpStatus: status }, { text: 'never asked for' });
    const { error, retries } = await respond();
    expect(error?.status).toBe(status);
    expect(error?.message).toContain(words);
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry when the service asks for a wait longer than a minute', async () => {
    server.enqueue({ httpStatus: 429, headers: { 'retry-after': '600' } }, { text: 'never asked for' });
    const { error, retries } = await respond();
    expect(error?.status).toBe(429);
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a stream that failed after it began', async () => {
    server.enqueue({ fail: 'error', message: 'overloaded mid-answer' }, { text: 'never asked for' });
    const { error, retries } = await respond();
    expect(error?.kind).toBe('stream');
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops waiting at once when the turn is stopped during the wait, sending nothing more', async () => {
    server.enqueue({ httpStatus: 429, headers: { 'retry-after': '30' } }, { text: 'never asked for' });
    const controller = new AbortController();
    const client = clientWith();
    const events: ModelStreamEvent[] = [];
    const pending = client.respond({ instructions: '', input, tools: [], signal: controller.signal }, (event) => {
      events.push(event);
      if (event.type === 'retry') setTimeout(() => controller.abort(), 50);
    });
    const started = Date.now();
    const error = await pending.then(
      () => null,
      (failure: unknown) => failure as ModelError,
    );
    expect(error?.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(events.map((event) => event.type)).toEqual(['retry']);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a service that cannot be reached, then says it could not be reached', async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise((resolve) => probe.close(resolve));
    const offline = createModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-test', model: 'm', maxRetries: 1, random: noJitter });
    const { error, retries } = await respond(offline);
    expect(error?.message).toMatch(/^Could not reach the model service/);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 2, attempts: 2, delayMs: 500 });
    expect(retries[0]?.type === 'retry' && retries[0].message).toMatch(/^The model service could not be reached \(.*ECONNREFUSED.*\); retrying in 0\.5 s \(attempt 2 of 2\)\.$/);
  });
});

describe('retries in a turn', () => {
  it('reach the front end as a model_retry event before the answer, and are not saved', async () => {
    const fx = await makeAgentFixture();
    try {
      fx.server.enqueue({ httpStatus: 429, headers: { 'retry-after': '0.2' } }, { text: 'Here it is.' });
      const recorder = eventRecorder();
      const conversation = await Conversation.start(fx.deps, fx.project);
      const outcome = await conversation.ask('hi', { mode: 'manual', approver: recordingApprover(), onEvent: recorder.onEvent });
      await conversation.close();
      expect(outcome.status).toBe('completed');
      const types = recorder.events.map((event) => event.type);
      expect(types.indexOf('model_retry')).toBeGreaterThan(types.indexOf('assistant_start'));
      expect(types.indexOf('model_retry')).toBeLessThan(types.indexOf('assistant_delta'));
      expect(recorder.of('model_retry')).toEqual([
        { type: 'model_retry', message: 'The model service answered 429 (rate limited); retrying in 0.2 s (attempt 2 of 4).', attempt: 2, attempts: 4, delayMs: 200 },
      ]);
      expect(await readFile(sessionFile(fx.home, conversation.id), 'utf8')).not.toContain('retrying');
    } finally {
      await fx.cleanup();
    }
  });
});
