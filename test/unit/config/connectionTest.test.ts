// "Test connection" against loopback servers: each failure a person can meet
// has its own message (name resolution, TLS, refused, the key, the URL, the
// model, tool calling, another protocol), and a working service reports its
// models and, where a local server gives it, the context length.
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../../src/main/core/config/connectionTest';
import type { ServiceConfig } from '../../../src/shared/modelServices';
import { startMockChatServer } from '../../support/mockChatServer';

type Reply = { status: number; body: unknown; type?: string };
type Route = (request: { headers: http.IncomingHttpHeaders; body: unknown }) => Reply;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback server answering `routes` ("GET /v1/models"); anything else is a 404. Returns its origin. */
async function serve(routes: Record<string, Route>, tls?: { key: Buffer; cert: Buffer }): Promise<string> {
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const route = routes[`${req.method} ${req.url}`];
      const reply = route ? route({ headers: req.headers, body: raw ? (JSON.parse(raw) as unknown) : undefined }) : { status: 404, body: { error: { message: `No route ${req.method} ${req.url}` } } };
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' });
      res.end(text);
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const chatService = (baseUrl: string, more: Partial<ServiceConfig> = {}): ServiceConfig => ({ name: 'local', protocol: 'chat', baseUrl, model: 'qwen3', ...more });
const chatAnswer = { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }] };
const list = (...ids: string[]) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });

describe('testConnection', () => {
  it('reports the models and the context length Ollama gives, and no problem, for a working service', async () => {
    let offered: unknown;
    const origin = await serve({
      'GET /v1/models': () => ({ status: 200, body: list('qwen3', 'llama3.2') }),
      'POST /v1/chat/completions': ({ body }) => {
        offered = (body as { tools: unknown }).tools;
        return { status: 200, body: chatAnswer };
      },
      'POST /api/show': () => ({ status: 200, body: { model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40_960 } } }),
    });
    const seen: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      seen.push(`${init?.method} ${String(input)}`);
      return fetch(input, init);
    };
    const report = await testConnection(chatService(`${origin}/v1`), { apiKey: null, fetch: recordingFetch });
    expect(report).toEqual({ problem: null, models: ['qwen3', 'llama3.2'], contextLength: 40_960 });
    expect(offered).toEqual([{ type: 'function', function: expect.objectContaining({ name: 'ping' }) }]);
    expect(seen).toContain(`POST ${origin}/v1/chat/completions`);
  });

  it("gives LM Studio's loaded context length", async () => {
    const origin = await serve({
      'GET /v1/models': () => ({ status: 200, body: list('qwen3') }),
      'POST /v1/chat/completions': () => ({ status: 200, body: chatAnswer }),
      'GET /api/v0/models': () => ({ status: 200, body: { data: [{ id: 'qwen3', max_context_length: 131_072, loaded_context_length: 8192 }] } }),
    });
    expect((await testConnection(chatService(`${origin}/v1`), { apiKey: null })).contextLength).toBe(8192);
  });

  it('lists Anthropic models from /v1/models with x-api-key and anthropic-version, and probes /v1/messages', async () => {
    const headers: http.IncomingHttpHeaders[] = [];
    const origin = await serve({
      'GET /v1/models': (request) => {
        headers.push(request.headers);
        return { status: 200, body: { data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false } };
      },
      'POST /v1/messages': () => ({ status: 200, body: { id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'OK' }] } }),
    });
    const service: ServiceConfig = { name: 'claude', protocol: 'anthropic', baseUrl: origin, model: 'claude-sonnet-4-5' };
    expect(await testConnection(service, { apiKey: 'sk-ant' })).toEqual({ problem: null, models: ['claude-sonnet-4-5'], contextLength: null });
    expect(headers[0]).toMatchObject({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01' });
  });

  it('names a host that does not resolve', async () => {
    const report = await testConnection(chatService('https://no-such-host.invalid/v1'), { apiKey: 'k' });
    expect(report.problem?.kind).toBe('name_resolution');
    expect(report.problem?.message).toMatch(/^The name no-such-host\.invalid could not be resolved \((ENOTFOUND|EAI_AGAIN)\): no such host is known\. Check the base URL for a typo/);
  });

  it('names an untrusted certificate', async () => {
    const fixtures = path.join(__dirname, 'fixtures');
    const tls = { key: await fs.readFile(path.join(fixtures, 'loopback-key.pem')), cert: await fs.readFile(path.join(fixtures, 'loopback-cert.pem')) };
    const origin = await serve({ 'GET /v1/models': () => ({ status: 200, body: list('qwen3') }) }, tls);
    const report = await testConnection(chatService(`${origin}/v1`), { apiKey: 'k' });
    expect(report.problem?.kind).toBe('tls');
    expect(report.problem?.message).toMatch(/^The secure connection to 127\.0\.0\.1:\d+ failed: its certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)\./);
  });

  it('names a refused connection', async () => {
    const origin = await serve({});
    await closers.pop()!();
    const report = await testConnection(chatService(`${origin}/v1`), { apiKey: null });
    expect(report.problem).toEqual({ kind: 'refused', message: `Nothing accepted the connection at ${origin} (connection refused). Check that the server is running (e.g. "ollama serve") and the port in the base URL.` });
  });

  it('names a refused key (401 and 403), with the variable it came from', async () => {
    for (const status of [401, 403]) {
      const origin = await serve({ 'GET /v1/models': () => ({ status, body: { error: { message: 'Incorrect API key provided.' } } }) });
      const report = await testConnection(chatService(`${origin}/v1`, { apiKeyEnv: 'GROQ_API_KEY' }), { apiKey: 'bad' });
      expect(report.problem).toEqual({
        kind: 'key',
        message: `The service refused the API key from GROQ_API_KEY (HTTP ${status}: Incorrect API key provided.). Check that the key is right, still valid, and belongs to this service.`,
      });
    }
  });

  it('names a URL the server does not have: a chat-only server asked for /responses', async () => {
    const chat = await startMockChatServer();
    closers.push(() => chat.close());
    const report = await testConnection({ name: 'local', protocol: 'responses', baseUrl: chat.baseURL, model: 'm' }, { apiKey: null });
    expect(report.problem?.kind).toBe('url_not_found');
    expect(report.problem?.message).toContain(`${chat.baseURL}/responses does not exist on this server (HTTP 404`);
    expect(report.problem?.message).toContain('a server that speaks only Chat Completions has no /responses (choose the chat protocol for it)');
  });

  it('names a model the service does not know, with the models it offers', async () => {
    const origin = await serve({
      'GET /v1/models': () => ({ status: 200, body: list('gpt-5', 'gpt-5-mini') }),
      'POST /v1/chat/completions': () => ({ status: 404, body: { error: { message: 'The model `gpt-6` does not exist or you do not have access to it.', code: 'model_not_found' } } }),
    });
    const report = await testConnection(chatService(`${origin}/v1`, { model: 'gpt-6' }), { apiKey: 'k' });
    expect(report.problem).toEqual({
      kind: 'model_not_found',
      message: 'The service does not know the model "gpt-6" (HTTP 404: The model `gpt-6` does not exist or you do not have access to it.). It offers: gpt-5, gpt-5-mini.',
    });
  });

  it('names a model without tool calling', async () => {
    const origin = await serve({ 'POST /v1/chat/completions': () => ({ status: 400, body: { error: 'registry.ollama.ai/library/gemma:2b does not support tools' } }) });
    const report = await testConnection(chatService(`${origin}/v1`, { model: 'gemma:2b' }), { apiKey: null });
    expect(report.problem).toEqual({
      kind: 'no_tool_calling',
      message: 'The model "gemma:2b" cannot call tools (HTTP 400: registry.ollama.ai/library/gemma:2b does not support tools), and Mino works through tools. Choose a model that supports tool calling, or turn tool calling on in the server.',
    });
  });

  it('names an answer in another protocol: an HTML page, or JSON that is not this protocol', async () => {
    const page = await serve({ 'POST /v1/chat/completions': () => ({ status: 200, type: 'text/html', body: '<!doctype html><title>Welcome</title>' }) });
    const html = await testConnection(chatService(`${page}/v1`), { apiKey: null });
    expect(html.problem).toEqual({
      kind: 'wrong_protocol',
      message: `${page}/v1/chat/completions answered, but with an HTML page, not OpenAI Chat Completions. Check the base URL (it should lead to the API, not a web page) and the protocol.`,
    });
    const chatOnly = await serve({ 'POST /v1/messages': () => ({ status: 200, body: chatAnswer }) });
    const other = await testConnection({ name: 'claude', protocol: 'anthropic', baseUrl: chatOnly, model: 'claude-sonnet-4-5' }, { apiKey: 'k' });
    expect(other.problem).toEqual({
      kind: 'wrong_protocol',
      message: `${chatOnly}/v1/messages answered with JSON, but not with a response of the Anthropic Messages API. Check that the protocol matches the server (responses, chat or anthropic) and the base URL.`,
    });
  });
});
