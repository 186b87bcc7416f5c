// The CLI's transport honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the
// environment it is given: a request goes through a loopback CONNECT proxy,
// or around it for a host NO_PROXY names, on every wire, to an http:// or an
// https:// service.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import type { HistoryItem } from '../../../src/main/core/model/types';
import { startConnectProxy, type ConnectProxy } from '../../support/connectProxy';
import { startMockChatServer, type MockChatServer } from '../../support/mockChatServer';
import { startMockAnthropicServer } from '../../support/mockAnthropicServer';
import { startMockResponsesServer, type MockResponsesServer } from '../../support/mockResponsesServer';
import { tsxArgs } from '../../support/tsxChild';

let proxy: ConnectProxy;
let chat: MockChatServer;

beforeEach(async () => {
  proxy = await startConnectProxy();
  chat = await startMockChatServer();
});
afterEach(async () => {
  await chat.close();
  await proxy.close();
});

const input: HistoryItem[] = [{ type: 'message', role: 'user', text: 'hi' }];
const hostOf = (baseURL: string) => new URL(baseURL).host;

describe('a proxy named in the environment', () => {
  it('carries the request (HTTPS_PROXY and HTTP_PROXY, as a corporate network sets them)', async () => {
    chat.enqueue({ text: 'Through the proxy.' });
    const env = { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url };
    const client = createModelClient({ protocol: 'chat', baseURL: chat.baseURL, apiKey: 'sk-test', model: 'm', maxRetries: 0, env });
    const response = await client.respond({ instructions: '', input, tools: [] }, () => {});
    expect(response.output).toEqual([{ type: 'message', role: 'assistant', text: 'Through the proxy.' }]);
    expect(proxy.tunnels).toEqual([hostOf(chat.baseURL)]);
  });

  it('is passed by for a host NO_PROXY names', async () => {
    chat.enqueue({ text: 'Direct.' });
    const env = { https_proxy: proxy.url, http_proxy: proxy.url, no_proxy: 'localhost,127.0.0.1' };
    const client = createModelClient({ protocol: 'chat', baseURL: chat.baseURL, apiKey: 'sk-test', model: 'm', maxRetries: 0, env });
    await client.respond({ instructions: '', input, tools: [] }, () => {});
    expect(proxy.tunnels).toEqual([]);
    expect(chat.requests).toHaveLength(1);
  });

  it('carries the anthropic and responses wires too', async () => {
    const anthropic = await startMockAnthropicServer();
    const responses = await startMockResponsesServer();
    try {
      anthropic.enqueue({ text: 'a' });
      responses.enqueue({ text: 'r' });
      const env = { HTTP_PROXY: proxy.url };
      for (const [protocol, baseURL] of [['anthropic', anthropic.baseURL], ['responses', responses.baseURL]] as const) {
        const client = createModelClient({ protocol, baseURL, apiKey: 'sk-test', model: 'm', maxRetries: 0, env });
        await client.respond({ instructions: '', input, tools: [] }, () => {});
      }
      expect(proxy.tunnels).toEqual([hostOf(anthropic.baseURL), hostOf(responses.baseURL)]);
    } finally {
      await anthropic.close();
      await responses.close();
    }
  });

  it('that cannot be reached fails the request naming the service, as any connection failure', async () => {
    const closed = await startConnectProxy();
    await closed.close();
    const client = createModelClient({ protocol: 'chat', baseURL: chat.baseURL, apiKey: 'sk-test', model: 'm', maxRetries: 0, env: { HTTP_PROXY: closed.url } });
    await expect(client.respond({ instructions: '', input, tools: [] }, () => {})).rejects.toThrow(/Could not reach the model service at/);
  });
});

describe('an https:// service, from a process that trusts its certificate through NODE_EXTRA_CA_CERTS', () => {
  const fixtures = path.join(__dirname, 'fixtures');
  const certFile = path.join(fixtures, 'loopback-cert.pem');
  let secure: MockResponsesServer;

  beforeEach(async () => {
    const [key, cert] = await Promise.all([fs.readFile(path.join(fixtures, 'loopback-key.pem'), 'utf8'), fs.readFile(certFile, 'utf8')]);
    secure = await startMockResponsesServer({ tls: { key, cert } });
  });
  afterEach(async () => {
    await secure.close();
  });

  /** One request from a child process whose environment is `vars` (and none of this one's proxy variables), with the client's default fetch. */
  async function respondInChild(vars: NodeJS.ProcessEnv): Promise<{ deltas: string[]; response?: { output: unknown[] }; error?: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...vars };
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'ALL_PROXY']) {
      for (const spelled of [name, name.toLowerCase()]) if (!(spelled in vars)) delete env[spelled];
    }
    const { stdout } = await promisify(execFile)(process.execPath, tsxArgs(path.join(fixtures, 'respondOnce.ts'), secure.baseURL), { env });
    return JSON.parse(stdout) as { deltas: string[]; response?: { output: unknown[] }; error?: string };
  }

  it('is reached through the CONNECT proxy HTTPS_PROXY names, the TLS running end to end inside the tunnel', async () => {
    secure.enqueue({ text: 'Encrypted, through the proxy.' });
    const result = await respondInChild({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certFile });
    expect(result).toMatchObject({ response: { output: [{ type: 'message', role: 'assistant', text: 'Encrypted, through the proxy.' }] } });
    expect(proxy.tunnels).toEqual([hostOf(secure.baseURL)]);
    expect(secure.requests).toHaveLength(1);
  });

  it('is reached directly when NO_PROXY names its host, the proxy still set for others', async () => {
    secure.enqueue({ text: 'Encrypted, direct.' });
    const result = await respondInChild({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1', NODE_EXTRA_CA_CERTS: certFile });
    expect(result).toMatchObject({ response: { output: [{ type: 'message', role: 'assistant', text: 'Encrypted, direct.' }] } });
    expect(proxy.tunnels).toEqual([]);
    expect(secure.requests).toHaveLength(1);
  });

  it('is refused, naming the certificate, by a process that does not trust it, through the proxy or not', async () => {
    const proxied = await respondInChild({ HTTPS_PROXY: proxy.url });
    const direct = await respondInChild({});
    for (const result of [proxied, direct]) {
      expect(result.error).toMatch(new RegExp(`^Could not reach the model service at ${secure.baseURL.replace(/[.]/g, '\\.')}: .*certificate`));
    }
    expect(proxy.tunnels).toEqual([hostOf(secure.baseURL)]);
    // The TLS handshake failed, so no request reached the service.
    expect(secure.requests).toHaveLength(0);
  });
});
