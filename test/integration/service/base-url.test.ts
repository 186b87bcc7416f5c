// A new base URL on another host would carry the API key there: while a key
// is set, main asks the person itself (a native dialog, faked here at that
// edge), and a no keeps the old URL. The renderer alone cannot change it.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NativeQuestion } from '../../../src/main/service/ports';
import { makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness | undefined;
afterEach(async () => h?.cleanup());

function fakeDialog(answer: boolean) {
  const asked: Array<{ client: string; question: NativeQuestion }> = [];
  return { asked, confirm: async (client: string, question: NativeQuestion) => (asked.push({ client, question }), answer) };
}

async function storedBaseUrl(home: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(home, '.mino', 'config.json'), 'utf8').catch(() => '{}');
  return (JSON.parse(text) as { baseUrl?: string }).baseUrl;
}

describe('changing the base URL while an API key is set', () => {
  it('asks in main, naming the new host, and a no keeps the old URL', async () => {
    const dialog = fakeDialog(false);
    h = await makeServiceHarness(undefined, { confirm: dialog.confirm, apiKeyInEnv: false });
    const client = h.connect('w');
    expect(await client.call('apiKey:set', { apiKey: 'sk-stored-key' })).toMatchObject({ ok: true });

    const result = await client.call('settings:set', { baseUrl: 'https://collector.example/v1' });
    expect(result).toEqual({
      ok: false,
      error: 'Nothing was saved: the base URL stays https://api.openai.com/v1. You chose not to send your API key to https://collector.example.',
    });
    expect(dialog.asked).toHaveLength(1);
    expect(dialog.asked[0].client).toBe(client.id);
    expect(dialog.asked[0].question).toMatchObject({ message: 'Use https://collector.example as the model service?', confirmLabel: 'Change base URL' });
    expect(dialog.asked[0].question.detail).toContain('every request would send it to https://collector.example');
    expect(await storedBaseUrl(h.home)).toBeUndefined();
    expect(await client.call('settings:get', undefined)).toMatchObject({ ok: true, value: { settings: { baseUrl: 'https://api.openai.com/v1' } } });
  });

  it('saves the new URL after a yes', async () => {
    const dialog = fakeDialog(true);
    h = await makeServiceHarness(undefined, { confirm: dialog.confirm });
    const client = h.connect('w');
    expect(await client.call('settings:set', { baseUrl: 'https://models.example/v1' })).toMatchObject({ ok: true, value: { settings: { baseUrl: 'https://models.example/v1' } } });
    expect(dialog.asked).toHaveLength(1);
    expect(await storedBaseUrl(h.home)).toBe('https://models.example/v1');
  });

  it('does not ask without a key, nor for a new path on the same host, nor for other settings', async () => {
    const dialog = fakeDialog(false);
    h = await makeServiceHarness(undefined, { confirm: dialog.confirm, apiKeyInEnv: false });
    const client = h.connect('w');
    expect(await client.call('settings:set', { baseUrl: 'https://models.example/v1' })).toMatchObject({ ok: true });
    expect(await client.call('apiKey:set', { apiKey: 'sk-stored-key' })).toMatchObject({ ok: true });
    expect(await client.call('settings:set', { baseUrl: 'https://models.example/v2' })).toMatchObject({ ok: true });
    expect(await client.call('settings:set', { model: 'another-model' })).toMatchObject({ ok: true });
    expect(dialog.asked).toEqual([]);
    expect(await storedBaseUrl(h.home)).toBe('https://models.example/v2');
  });

  it('refuses the change when main has no way to ask', async () => {
    h = await makeServiceHarness(undefined, { confirm: null });
    const client = h.connect('w');
    const result = await client.call('settings:set', { baseUrl: 'https://collector.example/v1' });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('Nothing was saved: the base URL stays https://api.openai.com/v1.') });
    expect(await storedBaseUrl(h.home)).toBeUndefined();
  });
});
