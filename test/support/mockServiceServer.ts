// A loopback OpenAI-compatible service as Settings → Services meets it: it
// lists its models (GET /v1/models), answers Test connection's small
// non-streamed request (POST /v1/chat/completions without `stream`), and
// hands every streamed request to the mock Chat Completions service, which
// plays the scripted turns. With `key`, both refuse any other key with a 401,
// as a real service does.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockChatServer, type MockChatServer } from './mockChatServer';

export interface MockServiceServer {
  /** The base URL to configure, ending in /v1. */
  baseURL: string;
  /** The streamed turns: enqueue what the model answers here. */
  chat: MockChatServer;
  /** Every request as "METHOD /path". */
  seen: string[];
  close(): Promise<void>;
}

export async function startMockServiceServer(options: { models: string[]; key?: string }): Promise<MockServiceServer> {
  const chat = await startMockChatServer();
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const route = `${req.method} ${req.url}`;
      seen.push(route);
      const json = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (options.key !== undefined && req.headers.authorization !== `Bearer ${options.key}`) {
        return json(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } });
      }
      if (route === 'GET /v1/models') return json(200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model' })) });
      if (route !== 'POST /v1/chat/completions') return json(404, { error: { message: `No route ${route}` } });
      const body = JSON.parse(raw.toString('utf8') || '{}') as { stream?: boolean; model?: string };
      if (body.stream) return forward(chat, req, raw, res);
      if (!options.models.includes(body.model ?? '')) return json(404, { error: { message: `The model \`${body.model}\` does not exist.`, code: 'model_not_found' } });
      return json(200, { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    chat,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await chat.close();
    },
  };
}

/** Passes a streamed request to the mock chat service and its stream back, as it comes. */
function forward(chat: MockChatServer, req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse): void {
  const target = new URL(`${chat.baseURL}/chat/completions`);
  const upstream = http.request(target, { method: 'POST', headers: { ...req.headers, host: target.host, 'content-length': String(raw.length) } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => res.destroy(error));
  upstream.end(raw);
}
