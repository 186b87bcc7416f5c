import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MinoService } from '../../../src/main/service/minoService';
import { FakeFolderPicker } from '../../support/bridge/fakeFolderPicker';
import { MemorySecretStore } from '../../support/bridge/memorySecretStore';
import { startTestBridge, type TestBridge } from '../../support/bridge/server';

let dir: string;
let bridge: TestBridge;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-bridge-'));
  await fs.mkdir(path.join(dir, 'renderer'));
  await fs.writeFile(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Mino</title>');
  const service = new MinoService({ homeDir: dir, appName: 'Mino', appVersion: '0', secrets: new MemorySecretStore(), pickFolder: new FakeFolderPicker().pick, env: {} });
  bridge = await startTestBridge({ service, rendererDir: path.join(dir, 'renderer') });
});

afterEach(async () => {
  await bridge.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const pageOrigin = () => new URL(bridge.url).origin;

/** Resolves with the first message, or rejects with the HTTP status the upgrade was refused with. */
function connectAndAsk(url: string, origin: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'app:info' })));
    ws.on('message', (data) => {
      resolve(JSON.parse(String(data)));
      ws.close();
    });
  });
}

describe('the test bridge', () => {
  it('listens on 127.0.0.1 and serves the renderer with the CSP plus its own socket', async () => {
    expect(new URL(bridge.url).hostname).toBe('127.0.0.1');
    const response = await fetch(bridge.url);
    expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ws://127.0.0.1:${new URL(bridge.url).port}/`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('carries the contract to the service for a client with the token', async () => {
    expect(await connectAndAsk(bridge.clientConfig.url, pageOrigin())).toEqual({ type: 'result', id: 1, result: { ok: true, value: { name: 'Mino', version: '0', platform: process.platform, logDirectory: null } } });
  });

  it('refuses a connection without the right token', async () => {
    const wrong = new URL(bridge.clientConfig.url);
    wrong.searchParams.set('token', 'guess');
    await expect(connectAndAsk(wrong.href, pageOrigin())).rejects.toThrow('refused with 403');
    wrong.searchParams.delete('token');
    await expect(connectAndAsk(wrong.href, pageOrigin())).rejects.toThrow('refused with 403');
  });

  it('refuses a connection from another origin even with the token', async () => {
    await expect(connectAndAsk(bridge.clientConfig.url, 'http://evil.example')).rejects.toThrow('refused with 403');
  });
});
