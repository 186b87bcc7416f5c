// The CLI's transport honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the
// environment it is given: a request goes through a loopback CONNECT proxy,
// or around it for a host NO_PROXY names, on every wire.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import type { HistoryItem } from '../../../src/main/core/model/types';
import { startConnectProxy, type ConnectProxy } from '../../support/connectProxy';
import { startMockChatServer, type MockChatServer } from '../../support/mockChatServer';
import { startMockAnthropicServer } from '../../support/mockAnthropicServer';
import { startMockResponsesServer } from '../../support/mockResponsesServer';

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
