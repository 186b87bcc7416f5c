// Several model services in ~/.mino/config.json: "services" and "service",
// checked with errors that name the entry and the field, and resolved per
// turn with the environment overriding only the `default` service.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_PLACEHOLDER_KEY, MISSING_KEY_MESSAGE, resolveService } from '../../../src/main/core/config/modelConfig';
import { serviceKeyVariables, type ServiceSettings } from '../../../src/main/core/config/services';
import { loadSettingsWithServices, saveSettings } from '../../../src/main/core/config/settings';
import { ModelError } from '../../../src/main/core/model/types';
import type { ServiceConfig } from '../../../src/shared/modelServices';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { makeTempHome, type TempHome } from '../../support/tempHome';

const OLLAMA: ServiceConfig = { name: 'ollama', protocol: 'chat', baseUrl: 'http://localhost:11434/v1', model: 'qwen3', contextWindow: 40_960 };
const CLAUDE: ServiceConfig = { name: 'claude', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' };

let temp: TempHome;
let file: string;
beforeEach(async () => {
  temp = await makeTempHome({ prefix: 'services' });
  file = path.join(temp.home, '.mino', 'config.json');
  await fs.mkdir(path.dirname(file), { recursive: true });
});
afterEach(async () => temp.cleanup());

async function loadFile(config: object) {
  await fs.writeFile(file, JSON.stringify(config));
  return loadSettingsWithServices(temp.home);
}

async function refusal(config: object): Promise<string> {
  const result = await loadFile(config);
  if (result.ok) throw new Error('the settings loaded');
  return result.error;
}

describe('services in the settings file', () => {
  it('reads "services" and "service", and a file without them has only the default service', async () => {
    const result = await loadFile({ services: [OLLAMA, CLAUDE], service: 'claude' });
    expect(result).toMatchObject({ ok: true, value: { services: { listed: [OLLAMA, CLAUDE], defaultName: 'claude' }, problems: [] } });
    expect(await loadFile({ model: 'gpt-5' })).toMatchObject({ ok: true, value: { services: { listed: [], defaultName: 'default' } } });
  });

  it('names the entry (position and name) and the field of each bad entry, and says what a name may be', async () => {
    const error = await refusal({ services: [{ ...OLLAMA, name: 'My Ollama' }, { ...CLAUDE, protocol: 'messages' }, { ...OLLAMA, name: 'lan', baseUrl: 'http://192.168.1.5:8000/v1' }] });
    expect(error).toContain(`The settings file ${file} has invalid values:`);
    expect(error).toContain('services[0] ("My Ollama"): name: The service name is not valid: a service name is 1 to 40 characters: lowercase letters, digits');
    expect(error).toContain('services[1] ("claude"): protocol: The protocol must be one of responses, chat, anthropic.');
    expect(error).toContain('services[2] ("lan"): baseUrl: The model service base URL must use https://');
  });

  it('refuses a missing field, an unknown field, a second service of a name, the name "default", and a default service not configured', async () => {
    const { model: _model, ...noModel } = OLLAMA;
    expect(await refusal({ services: [noModel] })).toContain('services[0] ("ollama"): model: The model name must be text');
    expect(await refusal({ services: [{ ...OLLAMA, apiKey: 'sk-x' }] })).toContain('services[0] ("ollama"): unknown field "apiKey"');
    expect(await refusal({ services: [OLLAMA, OLLAMA] })).toContain('services[1] ("ollama"): another service is already named "ollama"');
    expect(await refusal({ services: [{ ...OLLAMA, name: 'default' }] })).toContain('services[0] ("default"): "default" is the service made from the "baseUrl" and "model" settings');
    expect(await refusal({ services: [OLLAMA], service: 'groq' })).toContain('"service" names "groq", which is not among the services (default, ollama)');
    expect(await refusal({ services: { ollama: OLLAMA } })).toContain('"services" must be a list of services');
  });

  it('keeps the services when another setting is saved, and does not report them as unknown fields', async () => {
    await fs.writeFile(file, JSON.stringify({ services: [OLLAMA], service: 'ollama' }));
    expect(await saveSettings(temp.home, { theme: 'dark' })).toMatchObject({ ok: true, value: { problems: [] } });
    expect(await loadSettingsWithServices(temp.home)).toMatchObject({ ok: true, value: { services: { listed: [OLLAMA], defaultName: 'ollama' } } });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ services: [OLLAMA], service: 'ollama', theme: 'dark' });
  });

  it('names the variables that hold the services\' keys, each once', () => {
    expect(serviceKeyVariables({ listed: [OLLAMA, CLAUDE, { ...CLAUDE, name: 'claude2' }], defaultName: 'default' })).toEqual(['ANTHROPIC_API_KEY']);
  });
});

describe('resolving the service a turn uses', () => {
  const services: ServiceSettings = { listed: [OLLAMA, CLAUDE], defaultName: 'default' };
  const sources = (env: NodeJS.ProcessEnv, more: object = {}) => ({ settings: DEFAULT_SETTINGS, services, env, ...more });

  it('applies OPENAI_BASE_URL, OPENAI_API_KEY and MINO_MODEL to the default service only', async () => {
    const env = { OPENAI_BASE_URL: 'https://gateway.example/v1', OPENAI_API_KEY: 'sk-openai', MINO_MODEL: 'gpt-5', ANTHROPIC_API_KEY: 'sk-ant' };
    const fallback = await resolveService({}, sources(env));
    expect(fallback.service.name).toBe('default');
    expect(fallback.client).toMatchObject({ protocol: 'responses', baseURL: 'https://gateway.example/v1', model: 'gpt-5', apiKey: 'sk-openai' });
    const claude = await resolveService({ service: 'claude' }, sources(env));
    expect(claude.client).toMatchObject({ protocol: 'anthropic', baseURL: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', apiKey: 'sk-ant' });
    expect((await resolveService({ service: 'claude', model: 'claude-opus-4-1' }, sources(env))).model).toBe('claude-opus-4-1');
  });

  it('uses the settings\' default service, and fails a name no service has with the configured names', async () => {
    expect((await resolveService({}, { ...sources({}), services: { ...services, defaultName: 'ollama' } })).service).toEqual(OLLAMA);
    const unknown = resolveService({ service: 'groq' }, sources({}));
    await expect(unknown).rejects.toThrow(ModelError);
    await expect(unknown).rejects.toThrow('There is no model service named "groq". The configured services are: default, ollama, claude.');
  });

  it('takes a key the desktop stored for the service when its variable is unset, and asks none of a service on this machine', async () => {
    const stored = await resolveService({ service: 'claude' }, sources({}, { storedServiceKey: async (name: string) => (name === 'claude' ? 'sk-stored' : null) }));
    expect(stored.client.apiKey).toBe('sk-stored');
    expect((await resolveService({ service: 'ollama' }, sources({}))).client.apiKey).toBe(LOCAL_PLACEHOLDER_KEY);
  });

  it('says which variable to set when a remote service has no key, and keeps the message of old for the default service', async () => {
    await expect(resolveService({ service: 'claude' }, sources({}))).rejects.toThrow(
      'No API key is set for the model service "claude". Set ANTHROPIC_API_KEY in the environment Mino starts in, or enter a key for it in Settings',
    );
    await expect(resolveService({}, sources({}))).rejects.toThrow(MISSING_KEY_MESSAGE);
  });
});
