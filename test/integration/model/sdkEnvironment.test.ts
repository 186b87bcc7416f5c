// The SDKs under the wires read settings from the process's environment when
// they are not given them: the organization and project, extra headers, a
// log level, a second key. Mino passes everything it sends explicitly
// (OPENAI_ORG_ID / OPENAI_PROJECT_ID reach the client as options, read where
// the configuration is), so none of those variables may change a request or
// print anything, on any wire.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelClient } from '../../../src/main/core/model/client';
import type { HistoryItem } from '../../../src/main/core/model/types';
import type { WireProtocol } from '../../../src/shared/modelServices';
import { startMockAnthropicServer } from '../../support/mockAnthropicServer';
import { startMockChatServer } from '../../support/mockChatServer';
import { startMockResponsesServer, type RecordedRequest } from '../../support/mockResponsesServer';

const API_KEY = 'sk-explicit-0123456789';
const input: HistoryItem[] = [{ type: 'message', role: 'user', text: 'hi' }];

interface Service {
  baseURL: string;
  enqueue(step: { text: string }): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}
const services: Record<WireProtocol, () => Promise<Service>> = {
  responses: startMockResponsesServer,
  chat: startMockChatServer,
  anthropic: startMockAnthropicServer,
};

let printed: unknown[][];
beforeEach(() => {
  printed = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, level).mockImplementation((...args) => void printed.push(args));
  vi.stubEnv('OPENAI_ORG_ID', 'org_from_environment');
  vi.stubEnv('OPENAI_PROJECT_ID', 'proj_from_environment');
  vi.stubEnv('OPENAI_CUSTOM_HEADERS', 'X-From-Environment: openai\nX-Second: also\nAuthorization: Bearer sk-from-environment');
  vi.stubEnv('OPENAI_ADMIN_KEY', 'sk-admin-from-environment');
  vi.stubEnv('OPENAI_LOG', 'debug');
  vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
  vi.stubEnv('ANTHROPIC_CUSTOM_HEADERS', 'X-From-Environment: anthropic\nx-api-key: sk-from-environment\nAuthorization: Bearer sk-from-environment');
  vi.stubEnv('ANTHROPIC_AUTH_TOKEN', 'token-from-environment');
  vi.stubEnv('ANTHROPIC_LOG', 'debug');
  vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:9');
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe.each(['responses', 'chat', 'anthropic'] as const)('the %s wire, with SDK variables set in the environment', (protocol) => {
  it('sends only what it was given, to the base URL it was given, and prints nothing', async () => {
    const service = await services[protocol]();
    try {
      service.enqueue({ text: 'ok' });
      const client = createModelClient({ protocol, baseURL: service.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0, env: {} });
      await client.respond({ instructions: '', input, tools: [] }, () => undefined);
      expect(service.requests).toHaveLength(1);
      const { headers } = service.requests[0]!;
      expect(headers['x-from-environment']).toBeUndefined();
      expect(headers['x-second']).toBeUndefined();
      expect(headers['openai-organization']).toBeUndefined();
      expect(headers['openai-project']).toBeUndefined();
      expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
      if (protocol === 'anthropic') expect(headers['x-api-key']).toBe(API_KEY);
      expect(printed).toEqual([]);
      // The environment itself is left as it was.
      expect(process.env.OPENAI_CUSTOM_HEADERS).toMatch(/^X-From-Environment: openai/);
      expect(process.env.ANTHROPIC_CUSTOM_HEADERS).toMatch(/^X-From-Environment: anthropic/);
    } finally {
      await service.close();
    }
  });
});

describe('the organization and project, given as options', () => {
  it.each(['responses', 'chat'] as const)('are sent by the %s wire instead of the environment\'s', async (protocol) => {
    const service = await services[protocol]();
    try {
      service.enqueue({ text: 'ok' });
      const client = createModelClient({ protocol, baseURL: service.baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0, env: {}, organization: 'org_1', project: 'proj_1' });
      await client.respond({ instructions: '', input, tools: [] }, () => undefined);
      const { headers } = service.requests[0]!;
      expect([headers['openai-organization'], headers['openai-project']]).toEqual(['org_1', 'proj_1']);
    } finally {
      await service.close();
    }
  });
});
