// The renderer's API is derived from the contract: one function per channel
// and event, requests unwrapped to their value or an ApiError.
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../src/shared/ipc';
import { api, ApiError } from '../../../src/renderer/src/lib/api';

const calls: Array<[string, unknown[]]> = [];
/** Stands in for the preload's window.mino, which main's IPC gate answers. */
function installBridge(answer: (method: string, args: unknown[]) => unknown) {
  const mino = new Proxy({}, { get: (_target, method: string) => (...args: unknown[]) => (calls.push([method, args]), answer(method, args)) });
  (globalThis as { window?: unknown }).window = { mino };
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
  calls.length = 0;
});

describe('the renderer API', () => {
  it('has exactly one function per request and per event of the contract', () => {
    const expected = [...Object.values(INVOKE_CHANNELS).map((spec) => spec.method), ...Object.values(EVENT_CHANNELS).map((spec) => spec.subscribe)];
    expect(Object.keys(api).sort()).toEqual(expected.sort());
  });

  it('resolves a request to its value and throws the refusal as an ApiError with its message', async () => {
    installBridge((method) => (method === 'getCurrentProject' ? Promise.resolve({ ok: true, value: null }) : Promise.resolve({ ok: false, error: 'Open a project first.' })));
    await expect(api.getCurrentProject()).resolves.toBeNull();
    const refused = api.sendMessage({ text: 'hi' });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toThrow('Open a project first.');
    expect(calls).toEqual([
      ['getCurrentProject', []],
      ['sendMessage', [{ text: 'hi' }]],
    ]);
  });

  it('passes event subscriptions through, unsubscribe included', () => {
    const unsubscribe = () => undefined;
    installBridge(() => unsubscribe);
    const callback = () => undefined;
    expect(api.onSessionEvent(callback)).toBe(unsubscribe);
    expect(calls).toEqual([['onSessionEvent', [callback]]]);
  });

  it('says the page is not connected when there is no bridge', async () => {
    (globalThis as { window?: unknown }).window = {};
    await expect(api.getAppInfo()).rejects.toThrow('This page is not connected to Mino');
  });
});
