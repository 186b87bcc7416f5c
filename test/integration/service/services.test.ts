// Model services through a real MinoService: the list (where each key comes
// from, never the key), per-service keys, Test connection against loopback
// services, sending refused until a service works, a key that would go to a
// new host waiting for main's own yes, and the session's model picker:
// switching mid-session keeps the history, is recorded in the log, waits for
// a running turn, and a reopened session goes on with its own choice.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFile } from '../../../src/main/core/sessions/ids';
import type { ApprovalRequestView } from '../../../src/shared/sessions';
import type { ConnectionReportView, ServicesView, SessionModel } from '../../../src/shared/serviceViews';
import { startMockServiceServer, type MockServiceServer } from '../../support/mockServiceServer';
import { EDIT_GREETING, makeServiceHarness, type ServiceHarness } from './harness';

let h: ServiceHarness | undefined;
let remote: MockServiceServer | undefined;
afterEach(async () => {
  await h?.cleanup();
  await remote?.close();
  h = undefined;
  remote = undefined;
});

async function writeConfig(home: string, config: object): Promise<void> {
  await fs.mkdir(path.join(home, '.mino'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(home, '.mino', 'config.json'), JSON.stringify(config), { mode: 0o600 });
}

async function readConfig(home: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(home, '.mino', 'config.json'), 'utf8').catch(() => '{}')) as Record<string, unknown>;
}

async function modelRecords(home: string, id: string): Promise<Array<{ service: string; model: string }>> {
  const lines = (await fs.readFile(sessionFile(home, id), 'utf8')).split('\n').filter(Boolean);
  return lines.map((line) => JSON.parse(line) as { type: string; service: string; model: string }).filter((record) => record.type === 'model').map(({ service, model }) => ({ service, model }));
}

const entry = (view: ServicesView, name: string) => view.services.find((service) => service.name === name);

describe('the services list', () => {
  it('says where each key comes from and never carries a key', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    h.env.GROQ_API_KEY = 'gsk-env-SECRET-1111';
    await writeConfig(h.home, {
      services: [
        { name: 'groq', protocol: 'chat', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama-3.3-70b-versatile', apiKeyEnv: 'GROQ_API_KEY' },
        { name: 'claude', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' },
        { name: 'ollama', protocol: 'chat', baseUrl: 'http://localhost:11434/v1', model: 'qwen3' },
      ],
      service: 'claude',
    });
    const client = h.connect('w');
    await client.value('services:setKey', { name: 'claude', apiKey: 'sk-ant-SECRET-2222' });
    const view = await client.value<ServicesView>('services:list');
    expect(view.services.map((service) => [service.name, service.keySource, service.ready, service.isDefault])).toEqual([
      ['default', null, false, false],
      ['groq', 'environment', true, false],
      ['claude', 'stored', true, true],
      ['ollama', null, false, false],
    ]);
    expect(entry(view, 'ollama')?.local).toBe(true);
    expect(view.ready).toBe(true);
    expect(view.presets.map((preset) => preset.label)).toContain('Anthropic');
    expect(view.presets.find((preset) => preset.label === 'Groq')?.keyInEnvironment).toBe(true);
    const text = JSON.stringify(view) + JSON.stringify(client.of('services:changed'));
    expect(text).not.toContain('SECRET');
  });

  it('keeps the key stored before services existed as the default service\'s, and removing a service removes its key', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    await client.value('apiKey:set', { apiKey: 'sk-old-single-key' });
    let view = await client.value<ServicesView>('services:list');
    expect(entry(view, 'default')?.keySource).toBe('stored');
    await client.value('services:save', { service: { name: 'groq', protocol: 'chat', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama' } });
    await client.value('services:setKey', { name: 'groq', apiKey: 'gsk-stored' });
    view = await client.value<ServicesView>('services:remove', { name: 'groq' });
    expect(entry(view, 'groq')).toBeUndefined();
    await client.value('services:save', { service: { name: 'groq', protocol: 'chat', baseUrl: 'https://api.groq.com/openai/v1', model: 'llama' } });
    view = await client.value<ServicesView>('services:list');
    expect(entry(view, 'groq')?.keySource).toBeNull();
    expect(entry(view, 'default')?.keySource).toBe('stored');
    expect(await client.call('services:remove', { name: 'default' })).toMatchObject({ ok: false, error: expect.stringContaining('cannot be removed') });
  });

  it('refuses a service the config file would refuse, naming the field, and writes nothing', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    const plain = await client.call('services:save', { service: { name: 'far', protocol: 'chat', baseUrl: 'http://models.example/v1', model: 'm' } });
    expect(plain).toMatchObject({ ok: false, error: expect.stringContaining('https://') });
    const named = await client.call('services:save', { service: { name: 'Bad Name', protocol: 'chat', baseUrl: 'https://models.example/v1', model: 'm' } });
    expect(named).toMatchObject({ ok: false, error: expect.stringContaining('service name') });
    expect(await readConfig(h.home)).toEqual({});
  });
});

describe('a key going somewhere new', () => {
  it('asks in main before a service sends a key from the environment to its host; a no saves nothing, a yes saves it', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    h.env.COLLECTOR_KEY = 'sk-env-SECRET-3333';
    const client = h.connect('w');
    const service = { name: 'collector', protocol: 'chat', baseUrl: 'https://collector.example/v1', model: 'm', apiKeyEnv: 'COLLECTOR_KEY' };
    const refused = await client.call('services:save', { service });
    expect(refused).toEqual({
      ok: false,
      error: 'Nothing was saved: the service "collector" was not added. You chose not to send the API key from COLLECTOR_KEY to https://collector.example.',
    });
    expect(h.native.questions).toHaveLength(1);
    expect(h.native.questions[0]).toMatchObject({ message: 'Send the API key from COLLECTOR_KEY to https://collector.example?' });
    expect(await readConfig(h.home)).toEqual({});

    h.native.answer = true;
    await client.value('services:save', { service });
    expect((await readConfig(h.home)).services).toEqual([service]);
    // The same host and the same variable: nothing new to ask.
    await client.value('services:save', { service: { ...service, model: 'another' } });
    expect(h.native.questions).toHaveLength(2);
    // A stored key and a new host: asked again.
    await client.value('services:setKey', { name: 'collector', apiKey: 'sk-stored' });
    h.native.answer = false;
    const moved = await client.call('services:save', { service: { name: 'collector', protocol: 'chat', baseUrl: 'https://elsewhere.example/v1', model: 'm' } });
    expect(moved).toMatchObject({ ok: false, error: expect.stringContaining('stays as it was') });
    expect(h.native.questions).toHaveLength(3);
  });

  it('asks before the default service moves to a new host while its key is set, as the base URL setting does', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    await client.value('services:setKey', { name: 'default', apiKey: 'sk-default' });
    const result = await client.call('services:save', { service: { name: 'default', protocol: 'responses', baseUrl: 'https://collector.example/v1', model: 'gpt-5-mini' } });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('You chose not to send your API key to https://collector.example') });
    expect(await readConfig(h.home)).toEqual({});
  });
});

describe('Test connection', () => {
  it('reports the models of a working service, and a local one without a key works from then on, across a restart', async () => {
    remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    let view = await client.value<ServicesView>('services:save', { service: { name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' }, makeDefault: true });
    expect(entry(view, 'local')).toMatchObject({ local: true, tested: false, ready: false });
    expect(view.ready).toBe(false);

    const report = await client.value<ConnectionReportView>('services:test', { name: 'local' });
    expect(report).toMatchObject({ name: 'local', problem: null, models: ['qwen3', 'llama3.2'] });
    view = await client.value<ServicesView>('services:list');
    expect(entry(view, 'local')).toMatchObject({ tested: true, ready: true });
    expect(client.of('services:changed').at(-1)?.ready).toBe(true);

    const after = h.connect('after-restart', h.restart());
    expect(entry(await after.value<ServicesView>('services:list'), 'local')?.ready).toBe(true);
    // An edit is a service the test has not seen.
    view = await after.value<ServicesView>('services:save', { service: { name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'llama3.2' } });
    expect(entry(view, 'local')).toMatchObject({ tested: false, ready: false });
  });

  it('hands each failure to the person as the test named it: a refused key, an unknown model, no key at all', async () => {
    remote = await startMockServiceServer({ models: ['qwen3'], key: 'right-key' });
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    await client.value('services:save', { service: { name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' } });
    await client.value('services:setKey', { name: 'local', apiKey: 'wrong-key' });
    const refused = await client.value<ConnectionReportView>('services:test', { name: 'local' });
    expect(refused.problem?.kind).toBe('key');
    expect(refused.problem?.message).toMatch(/^The service refused the API key \(HTTP 401: Incorrect API key provided\.\)/);

    await client.value('services:setKey', { name: 'local', apiKey: 'right-key' });
    await client.value('services:save', { service: { name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'no-such-model' } });
    const unknown = await client.value<ConnectionReportView>('services:test', { name: 'local' });
    expect(unknown.problem).toMatchObject({ kind: 'model_not_found', message: expect.stringContaining('It offers: qwen3.') });
    expect(entry(await client.value<ServicesView>('services:list'), 'local')?.tested).toBe(false);

    await client.value('services:save', { service: { name: 'far', protocol: 'chat', baseUrl: 'https://far.example/v1', model: 'm', apiKeyEnv: 'FAR_KEY' } });
    const keyless = await client.value<ConnectionReportView>('services:test', { name: 'far' });
    expect(keyless.problem).toMatchObject({ kind: 'key', message: expect.stringContaining('No API key is set for the service "far"') });
    expect(keyless.problem?.message).toContain('FAR_KEY');
  });

  it('lists a service\'s models for the picker, and says why when it gives none', async () => {
    remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const client = h.connect('w');
    await client.value('services:save', { service: { name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' } });
    expect(await client.value('services:models', { name: 'local' })).toEqual({ name: 'local', models: ['qwen3', 'llama3.2'], problem: null });
    await client.value('services:save', { service: { name: 'gone', protocol: 'chat', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } });
    const gone = await client.value<{ models: null; problem: string }>('services:models', { name: 'gone' });
    expect(gone.models).toBeNull();
    expect(gone.problem).toContain('Could not ask http://127.0.0.1:9/v1/models');
  });
});

describe('sending', () => {
  it('is refused while no service works, pointing to Settings → Services, and goes once a key is set', async () => {
    h = await makeServiceHarness(undefined, { apiKeyInEnv: false });
    const { client } = await h.clientWithSession('w');
    const refused = await client.call('turn:send', { text: 'Hello?' });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('Settings → Services') });
    expect(h.server.requests).toHaveLength(0);
    expect(client.turnEvents()).toEqual([]);

    await client.value('services:setKey', { name: 'default', apiKey: 'sk-now-set' });
    h.server.enqueue({ text: 'Hello.' });
    await client.value('turn:send', { text: 'Hello?' });
    const { end } = await client.turnFinished();
    expect(end.status).toBe('completed');
    expect(h.server.requests[0]?.headers.authorization).toBe('Bearer sk-now-set');
  });

  it('is refused when the session\'s own service has no key while another works, naming that service', async () => {
    h = await makeServiceHarness();
    await writeConfig(h.home, { services: [{ name: 'far', protocol: 'chat', baseUrl: 'https://far.example/v1', model: 'm' }] });
    const { client } = await h.clientWithSession('w');
    await client.value('session:setModel', { service: 'far', model: 'm' });
    const refused = await client.call('turn:send', { text: 'Hello?' });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('The model service "far" this session uses has no API key') });
  });
});

describe('the session\'s model', () => {
  it('switches mid-session keeping the history, records each choice in the log, and a reopened session keeps its own', async () => {
    remote = await startMockServiceServer({ models: ['qwen3', 'llama3.2'] });
    h = await makeServiceHarness();
    await writeConfig(h.home, { services: [{ name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' }] });
    const { client, session } = await h.clientWithSession('w');
    expect(await client.value<SessionModel>('session:model')).toEqual({ service: 'default', model: 'mock-model', pending: false });

    h.server.enqueue({ text: 'First answer.' });
    await client.value('turn:send', { text: 'First question' });
    await client.turnFinished();

    expect(await client.value('session:setModel', { service: 'local', model: 'llama3.2' })).toEqual({ service: 'local', model: 'llama3.2', pending: false });
    remote.chat.enqueue({ text: 'Second answer.' });
    const from = client.received.length;
    await client.value('turn:send', { text: 'Second question' });
    expect((await client.turnFinished(from)).end.status).toBe('completed');

    const sent = remote.chat.requests[0]?.body as { model: string; messages: Array<{ role: string; content: unknown }> };
    expect(sent.model).toBe('llama3.2');
    expect(JSON.stringify(sent.messages)).toContain('First question');
    expect(JSON.stringify(sent.messages)).toContain('First answer.');
    expect(await modelRecords(h.home, session.id)).toEqual([
      { service: 'default', model: 'mock-model' },
      { service: 'local', model: 'llama3.2' },
    ]);

    const unknown = await client.call('session:setModel', { service: 'nowhere', model: 'm' });
    expect(unknown).toMatchObject({ ok: false, error: expect.stringContaining('There is no model service named "nowhere"') });

    // Reopened after a restart: its own service and model, not the default's.
    await h.service.detachClient(client.id);
    const reopened = h.connect('reopened', h.restart());
    h.picker.willPick(h.project);
    await reopened.value('projects:pick');
    await reopened.value('sessions:open', { id: session.id });
    expect(await reopened.value<SessionModel>('session:model')).toEqual({ service: 'local', model: 'llama3.2', pending: false });
  });

  it('leaves a running turn on the service it started with; the pick applies from the next message', async () => {
    remote = await startMockServiceServer({ models: ['qwen3'] });
    h = await makeServiceHarness();
    await writeConfig(h.home, { services: [{ name: 'local', protocol: 'chat', baseUrl: remote.baseURL, model: 'qwen3' }] });
    const { client } = await h.clientWithSession('w');
    h.server.enqueue(EDIT_GREETING, { text: 'Changed it.' });
    await client.value('turn:send', { text: 'Change the greeting' });
    const ask = await client.next('approval:request');

    expect(await client.value('session:setModel', { service: 'local', model: 'qwen3' })).toEqual({ service: 'local', model: 'qwen3', pending: true });
    await client.value('approvals:answer', { requestId: (ask as ApprovalRequestView).requestId, approved: true });
    expect((await client.turnFinished()).end.status).toBe('completed');
    expect(h.server.requests).toHaveLength(2);
    expect(remote.chat.requests).toHaveLength(0);

    remote.chat.enqueue({ text: 'From the local service.' });
    const from = client.received.length;
    await client.value('turn:send', { text: 'And now?' });
    expect((await client.turnFinished(from)).end.status).toBe('completed');
    expect(remote.chat.requests).toHaveLength(1);
    expect(await client.value<SessionModel>('session:model')).toEqual({ service: 'local', model: 'qwen3', pending: false });
  });
});
