// The desktop's model transport (Electron's net.fetch) fails in Chromium's
// words; core names a failure for the person from Node's system codes. So a
// refused connection, an unknown host and an untrusted certificate must reach
// Test connection in Node's shape, each named as it would be without Electron.
import { describe, expect, it } from 'vitest';
import { testConnection } from '../../../src/main/core/config/connectionTest';
import { netFetch } from '../../../src/main/electron/netFetch';

/** Stands in for Electron's net module, which fails as Chromium reports it. */
function failingNet(message: string) {
  return { fetch: async () => Promise.reject(new Error(message)) } as unknown as Parameters<typeof netFetch>[0];
}

const service = { name: 'local', protocol: 'chat' as const, baseUrl: 'https://models.example/v1', model: 'm' };

describe('netFetch', () => {
  it.each([
    ['net::ERR_CONNECTION_REFUSED', 'refused'],
    ['net::ERR_NAME_NOT_RESOLVED', 'name_resolution'],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'tls'],
  ])('passes %s on so Test connection names it (%s)', async (chromium, kind) => {
    const report = await testConnection(service, { apiKey: 'k', fetch: netFetch(failingNet(chromium)), timeoutMs: 5_000 });
    expect(report.problem?.kind).toBe(kind);
  });

  it('passes a URL object as its text, and an answer through unchanged', async () => {
    const seen: unknown[] = [];
    const net = { fetch: async (input: unknown) => (seen.push(input), new Response('ok')) } as unknown as Parameters<typeof netFetch>[0];
    const response = await netFetch(net)(new URL('https://models.example/v1/models'));
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual(['https://models.example/v1/models']);
  });

  it('leaves an abort as it came', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const net = { fetch: async () => Promise.reject(abort) } as unknown as Parameters<typeof netFetch>[0];
    await expect(netFetch(net)('https://models.example/')).rejects.toBe(abort);
  });
});
