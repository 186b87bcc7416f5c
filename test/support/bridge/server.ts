// The test bridge: serves the built renderer and carries the IPC contract
// over a loopback WebSocket to a real MinoService. Only the transport differs
// from the app: the same dispatch, the same CSP (plus this socket), the same
// renderer. It binds 127.0.0.1, requires a random token, and checks the page
// origin; it is test support, never part of the built app.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { apiShape } from '../../../src/shared/ipc';
import { createRendererRequestHandler } from '../../../src/main/electron/appProtocol';
import { rendererCsp } from '../../../src/main/electron/csp';
import { clientId, type ClientId } from '../../../src/main/service/clients';
import { dispatchInvoke } from '../../../src/main/service/dispatch';
import type { MinoService } from '../../../src/main/service/minoService';
import type { BrowserBridgeConfig } from './browserClient';

export const BRIDGE_PATH = '/mino-bridge';

export interface TestBridge {
  /** The renderer's page. */
  url: string;
  /** The page a new session window loads (what `openSessionWindow(id)` means in the app): url + ?session=<id>. */
  sessionUrl(sessionId: string): string;
  /** What the browser side needs (see installMinoOverSocket). */
  clientConfig: BrowserBridgeConfig;
  close(): Promise<void>;
}

export interface TestBridgeOptions {
  service: MinoService;
  rendererDir: string;
}

function sameSecret(expected: string, actual: string | null): boolean {
  if (actual === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function respond(handler: (request: Request) => Promise<Response>, origin: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const response = await handler(new Request(new URL(req.url ?? '/', origin), { method: req.method }));
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startTestBridge(options: TestBridgeOptions): Promise<TestBridge> {
  const token = randomBytes(32).toString('hex');
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}${BRIDGE_PATH}`;

  const handler = createRendererRequestHandler({ rendererDir: options.rendererDir, csp: rendererCsp({ connectSrc: [wsUrl] }), host: `127.0.0.1:${port}` });
  server.on('request', (req, res) => {
    respond(handler, origin, req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== BRIDGE_PATH || req.headers.origin !== origin || !sameSecret(token, url.searchParams.get('token'))) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws));
  });

  let connections = 0;
  sockets.on('connection', (ws: WebSocket) => {
    connections += 1;
    const client: ClientId = clientId(`socket-${connections}`);
    options.service.attachClient(client, (event, payload) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'event', event, payload }));
    });
    ws.on('message', (data) => {
      let message: { id?: unknown; channel?: unknown; input?: unknown };
      try {
        // A Uint8Array crossed as { __minoBytes: base64 } (browserClient.ts): revived as bytes, as Electron's IPC delivers them.
        message = JSON.parse(String(data), (_key, value: unknown) =>
          value !== null && typeof value === 'object' && typeof (value as { __minoBytes?: unknown }).__minoBytes === 'string'
            ? new Uint8Array(Buffer.from((value as { __minoBytes: string }).__minoBytes, 'base64'))
            : value,
        ) as typeof message;
      } catch {
        return;
      }
      if (typeof message.id !== 'number') return;
      const id = message.id;
      void dispatchInvoke(options.service, client, message.channel, message.input).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'result', id, result }));
      });
    });
    // A closed page is a closed window: its turn stops and its pending asks are denied.
    ws.on('close', () => void options.service.detachClient(client));
  });

  return {
    url: `${origin}/index.html`,
    sessionUrl: (sessionId) => `${origin}/index.html?session=${encodeURIComponent(sessionId)}`,
    clientConfig: { url: `${wsUrl}?token=${token}`, shape: apiShape() },
    async close() {
      for (const ws of sockets.clients) ws.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
