// Model services requests: the services of ~/.mino/config.json with where
// each key comes from (never the key), saving and removing one, its stored
// key, Test connection, its models, and whether any service works yet (the
// first-run setup, and sending, wait for one).
//
// The renderer is untrusted, so a save that would send a key somewhere new
// (another host, or a key from another environment variable) waits for a
// yes asked by main itself, as settings:set does for the base URL. Keys are
// used only against the service saved under their name: Test connection
// takes a saved service's name, never an address from the page.
import { changeServices, chooseDefaultService } from '../../core/config/serviceFile';
import { testConnection } from '../../core/config/connectionTest';
import { modelIds, serviceHeaders, serviceUrl } from '../../core/config/modelList';
import { serviceNamed } from '../../core/config/modelConfig';
import { SERVICE_PRESETS } from '../../core/config/servicePresets';
import { allServices, type ServiceSettings } from '../../core/config/services';
import { loadSettingsWithServices, SettingsError } from '../../core/config/settings';
import { minoPaths } from '../../core/config/minoHome';
import { addLogSecrets, errorText, log } from '../../core/log/log';
import { DEFAULT_SERVICE_NAME, isLoopbackUrl, type ServiceConfig } from '../../../shared/modelServices';
import type { Settings } from '../../../shared/settings';
import type { ConnectionReportView, ServiceEntry, ServiceModels, ServiceSaveInput, ServicesView } from '../../../shared/serviceViews';
import type { ClientId, ClientRegistry } from '../clients';
import type { NativeConfirm, SecretStore, ServicePorts } from '../ports';
import type { ServiceChecks } from './serviceChecks';
import { setSettings } from './settings';

export interface ServicesDeps {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  secrets: SecretStore;
  clients: ClientRegistry;
  checks: ServiceChecks;
  confirm?: NativeConfirm;
  fetch?: typeof fetch;
  withholdVariables?: ServicePorts['withholdVariables'];
  settingsChanged?: ServicePorts['settingsChanged'];
}

/** Where sending is refused without a working service: the pointer a person follows. */
export const NO_SERVICE_MESSAGE =
  'No model service is set up yet, so Mino has nowhere to send your message. Open Settings → Services (or follow the setup on the start screen): ' +
  'add a service, enter its API key or use one from the environment, test it and pick a model. Then send your message again.';

/** The key variable of the `default` service, which the environment's OPENAI_* variables configure. */
const DEFAULT_KEY_VARIABLE = 'OPENAI_API_KEY';

interface Configured {
  settings: Settings;
  services: ServiceSettings;
}

async function configured(homeDir: string): Promise<Configured> {
  const loaded = await loadSettingsWithServices(homeDir);
  if (!loaded.ok) throw new Error(loaded.error);
  return { settings: loaded.value.settings, services: loaded.value.services };
}

/** Every service as requests use it: `default` with OPENAI_BASE_URL and MINO_MODEL applied. */
function servicesOf(deps: ServicesDeps, config: Configured): ServiceConfig[] {
  return allServices(config.settings, config.services).map((service) => serviceNamed(service.name, { ...config, env: deps.env }));
}

function keyVariable(service: Pick<ServiceConfig, 'name' | 'apiKeyEnv'>): string | undefined {
  return service.name === DEFAULT_SERVICE_NAME ? DEFAULT_KEY_VARIABLE : service.apiKeyEnv;
}

/** The key requests to `service` would carry, and where it comes from: its variable first, as the model client reads it. */
async function keyOf(deps: ServicesDeps, service: Pick<ServiceConfig, 'name' | 'apiKeyEnv'>): Promise<{ key: string; source: 'environment' | 'stored' } | null> {
  const variable = keyVariable(service);
  const fromEnv = variable ? deps.env[variable]?.trim() : undefined;
  if (fromEnv) return { key: fromEnv, source: 'environment' };
  let stored: string | null;
  try {
    stored = (await deps.secrets.getKey(service.name))?.trim() || null;
  } catch (error) {
    // A key that cannot be read is as good as none here; the turn that needs it says why.
    log.warn('services.stored_key_unreadable', { service: service.name, error: errorText(error) });
    stored = null;
  }
  return stored ? { key: stored, source: 'stored' } : null;
}

async function entryOf(deps: ServicesDeps, service: ServiceConfig, defaultName: string): Promise<ServiceEntry> {
  const key = await keyOf(deps, service);
  const local = isLoopbackUrl(service.baseUrl);
  const tested = await deps.checks.passed(service);
  return {
    name: service.name,
    protocol: service.protocol,
    baseUrl: service.baseUrl,
    model: service.model,
    apiKeyEnv: keyVariable(service) ?? null,
    contextWindow: service.contextWindow ?? null,
    keySource: key?.source ?? null,
    local,
    tested,
    ready: key !== null || (local && tested),
    isDefault: service.name === defaultName,
    builtIn: service.name === DEFAULT_SERVICE_NAME,
  };
}

/** The services as Settings shows them; a settings file that cannot be read is the view's problem, not a failure. */
export async function servicesView(deps: ServicesDeps): Promise<ServicesView> {
  const path = minoPaths(deps.homeDir).config;
  const presets = SERVICE_PRESETS.map((preset) => ({
    label: preset.label,
    service: preset.service,
    fill: preset.fill ?? null,
    docs: preset.docs,
    keyInEnvironment: preset.service.apiKeyEnv !== undefined && Boolean(deps.env[preset.service.apiKeyEnv]?.trim()),
  }));
  const loaded = await loadSettingsWithServices(deps.homeDir);
  if (!loaded.ok) return { services: [], presets, ready: false, path, problem: loaded.error };
  const config = { settings: loaded.value.settings, services: loaded.value.services };
  const services = await Promise.all(servicesOf(deps, config).map((service) => entryOf(deps, service, config.services.defaultName)));
  return { services, presets, ready: services.some((service) => service.ready), path, problem: null };
}

async function changed(deps: ServicesDeps): Promise<ServicesView> {
  const view = await servicesView(deps);
  deps.clients.broadcast('services:changed', view);
  return view;
}

function findService(deps: ServicesDeps, config: Configured, name: string): ServiceConfig {
  const service = servicesOf(deps, config).find((candidate) => candidate.name === name);
  if (!service) {
    throw new Error(`There is no model service named "${name}". Add it in Settings → Services first (it may have been removed in another window).`);
  }
  return service;
}

/** Adds or replaces one service (by name); `default` is the base URL and model settings, saved as settings:set saves them. */
export async function saveService(deps: ServicesDeps, client: ClientId, input: ServiceSaveInput): Promise<ServicesView> {
  const { service } = input;
  const config = await configured(deps.homeDir);
  if (service.name === DEFAULT_SERVICE_NAME) {
    await saveDefaultService(deps, client, service);
  } else {
    const current = config.services.listed.find((candidate) => candidate.name === service.name);
    await confirmKeyDestination(deps, client, current, service);
    await rethrowSettings(changeServices(deps.homeDir, { save: service, makeDefault: input.makeDefault === true }));
    // A variable named now holds a key from here on: no command Mino runs may inherit it.
    if (service.apiKeyEnv) deps.withholdVariables?.([service.apiKeyEnv]);
  }
  if (input.makeDefault && service.name === DEFAULT_SERVICE_NAME) await rethrowSettings(chooseDefaultService(deps.homeDir, DEFAULT_SERVICE_NAME));
  return changed(deps);
}

async function saveDefaultService(deps: ServicesDeps, client: ClientId, service: ServiceConfig): Promise<void> {
  if (service.protocol !== 'responses') {
    throw new Error('The service "default" speaks the Responses API (it is the base URL and model settings). Add a service of its own for another protocol.');
  }
  if (service.apiKeyEnv !== undefined && service.apiKeyEnv !== DEFAULT_KEY_VARIABLE) {
    throw new Error(`The service "default" takes its key from ${DEFAULT_KEY_VARIABLE} or the key stored for it. Add a service of its own to use another variable.`);
  }
  if (service.contextWindow !== undefined) {
    throw new Error('The service "default" uses the Context window setting: set it there, or add a service of its own with its own window.');
  }
  // settings:set asks before the base URL moves to another host while a key is set.
  await setSettings({ ...deps, ...(deps.settingsChanged ? { settingsChanged: deps.settingsChanged } : {}) }, client, { baseUrl: service.baseUrl, model: service.model });
}

/** Removes a listed service, its stored key and its test result. */
export async function removeService(deps: ServicesDeps, name: string): Promise<ServicesView> {
  if (name === DEFAULT_SERVICE_NAME) {
    throw new Error('The service "default" is made from the base URL and model settings and cannot be removed. Choose another service for new sessions instead.');
  }
  await rethrowSettings(changeServices(deps.homeDir, { remove: name }));
  await deps.secrets.deleteKey(name);
  await deps.checks.forget(name);
  return changed(deps);
}

export async function setServiceKey(deps: ServicesDeps, name: string, apiKey: string): Promise<ServicesView> {
  findService(deps, await configured(deps.homeDir), name);
  addLogSecrets([apiKey]);
  await deps.secrets.setKey(name, apiKey);
  return changed(deps);
}

export async function deleteServiceKey(deps: ServicesDeps, name: string): Promise<ServicesView> {
  findService(deps, await configured(deps.homeDir), name);
  await deps.secrets.deleteKey(name);
  return changed(deps);
}

/** Test connection of a saved service with its own key; the report's problem is the person's to read, verbatim. */
export async function testService(deps: ServicesDeps, name: string): Promise<ConnectionReportView> {
  const service = findService(deps, await configured(deps.homeDir), name);
  const key = await keyOf(deps, service);
  if (key === null && !isLoopbackUrl(service.baseUrl)) {
    const variable = keyVariable(service);
    return {
      name,
      problem: {
        kind: 'key',
        message: `No API key is set for the service "${name}", so it was not asked. Enter its key in Settings → Services${variable ? `, or set ${variable} in the environment Mino starts in` : ''}, then test again.`,
      },
      models: null,
      contextLength: null,
    };
  }
  if (key) addLogSecrets([key.key]);
  const report = await testConnection(service, { apiKey: key?.key ?? null, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  await deps.checks.record(service, report.problem === null);
  await changed(deps);
  return { name, ...report };
}

/** The models a saved service lists (GET {baseUrl}/models, or /v1/models for Anthropic); null with why when it gave none. */
export async function listServiceModels(deps: ServicesDeps, name: string): Promise<ServiceModels> {
  const service = findService(deps, await configured(deps.homeDir), name);
  const key = await keyOf(deps, service);
  const url = serviceUrl(service, '/models');
  try {
    const response = await (deps.fetch ?? fetch)(url, { method: 'GET', headers: serviceHeaders(service, key?.key ?? null), signal: AbortSignal.timeout(30_000) });
    if (!response.ok) {
      await response.body?.cancel();
      const why = response.status === 401 || response.status === 403 ? 'it refused the API key' : 'it offers no list there';
      return { name, models: null, problem: `The service gave no list of models (HTTP ${response.status} from ${url}: ${why}). Type the model's name instead.` };
    }
    const models = modelIds(await response.json());
    return models === null ? { name, models: null, problem: `${url} did not answer with a list of models. Type the model's name instead.` } : { name, models, problem: null };
  } catch (error) {
    return { name, models: null, problem: `Could not ask ${url} for its models (${errorText(error)}). Use Test connection to see what is wrong, or type the model's name.` };
  }
}

/**
 * Refuses, with a pointer to the setup, to send a message while no service
 * works, or to a service that cannot work (it has no key and is not on this
 * machine). A settings file that cannot be read is left to the turn, which says why.
 */
export async function requireWorkingService(deps: ServicesDeps, chosen: string | undefined): Promise<void> {
  const view = await servicesView(deps);
  if (view.problem !== null) return;
  if (!view.ready) throw new Error(NO_SERVICE_MESSAGE);
  const entry = view.services.find((service) => (chosen === undefined ? service.isDefault : service.name === chosen));
  if (entry && entry.keySource === null && !entry.local) {
    throw new Error(
      `The model service "${entry.name}" this session uses has no API key. Enter its key in Settings → Services, or choose another service in the model picker at the top of the window, then send your message again.`,
    );
  }
}

/** Returns when `next` may be saved: no key would go anywhere new, or the person said yes in main's own dialog. */
async function confirmKeyDestination(deps: ServicesDeps, client: ClientId, current: ServiceConfig | undefined, next: ServiceConfig): Promise<void> {
  const key = await keyOf(deps, next);
  if (key === null) return;
  const to = originOf(next.baseUrl);
  const sameHost = current !== undefined && originOf(current.baseUrl) === to;
  const sameKey = current !== undefined && current.apiKeyEnv === next.apiKeyEnv;
  if (sameHost && sameKey) return;
  const from = key.source === 'environment' ? `from ${next.apiKeyEnv}` : `stored for "${next.name}"`;
  const kept = current ? `Nothing was saved: the service "${next.name}" stays as it was.` : `Nothing was saved: the service "${next.name}" was not added.`;
  if (deps.confirm === undefined) throw new Error(`${kept} Mino cannot ask you here whether to send the API key ${from} to ${to}.`);
  const yes = await deps.confirm(client, {
    title: 'Send an API key to this host?',
    message: `Send the API key ${from} to ${to}?`,
    detail:
      `The model service "${next.name}" would use ${next.baseUrl}, and every request to it would carry the API key ${from}. ` +
      'Save it only if you trust that service with the key.',
    confirmLabel: 'Save the service',
  });
  if (!yes) throw new Error(`${kept} You chose not to send the API key ${from} to ${to}.`);
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/** A settings problem keeps its message (it names the file and the fix) without the class, which does not cross IPC. */
async function rethrowSettings(done: Promise<void>): Promise<void> {
  try {
    await done;
  } catch (error) {
    if (error instanceof SettingsError) throw new Error(error.message);
    throw error;
  }
}
