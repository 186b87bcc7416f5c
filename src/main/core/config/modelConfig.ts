// Which model service a turn talks to, and with what: resolved per turn so
// edits apply. A session names a service and a model (mino exec --service
// and --model, or what its log recorded); what it leaves out comes from the
// settings' default service. The service named `default` is the single-service
// configuration of older versions, and the environment overrides it as it
// always did: OPENAI_BASE_URL, OPENAI_API_KEY and MINO_MODEL, then
// ~/.mino/config.json, then the key the desktop app stored. A listed service
// takes its key from the variable its apiKeyEnv names, then from the desktop's
// store; one on this machine (Ollama, LM Studio, ...) may have none.
import { addLogSecrets } from '../log/log';
import { createModelClient, type ModelClientOptions } from '../model/client';
import { ModelError, type ModelClient } from '../model/types';
import { DEFAULT_SERVICE_NAME, isLoopbackUrl, type ServiceConfig } from '../../../shared/modelServices';
import type { Settings } from '../../../shared/settings';
import { allServices, NO_SERVICE_SETTINGS, unknownServiceMessage, type ServiceSettings } from './services';

export interface ModelConfigSources {
  /** From ~/.mino/config.json, defaults filled in. */
  settings: Pick<Settings, 'baseUrl' | 'model' | 'streamIdleTimeout'>;
  /** The services of the settings file; none listed (only `default`) when not given. */
  services?: ServiceSettings;
  /**
   * The environment Mino started with, as environmentSecret.ts keeps it: process.env itself no longer holds
   * OPENAI_API_KEY (or a service's apiKeyEnv), which is taken out at start-up so no child inherits it.
   */
  env: NodeJS.ProcessEnv;
  /** A key stored by the desktop app (safeStorage) for the `default` service; the CLI has none. */
  storedApiKey?: string | null;
  /** The key the desktop stored for a listed service, by its name; null when none. */
  storedServiceKey?: (service: string) => Promise<string | null>;
  /** The transport (the desktop passes Electron's net.fetch); default the client's environmentFetch. */
  fetch?: typeof fetch;
}

/** What a session asked for; what it leaves out comes from the settings' default service. */
export interface ServiceChoice {
  service?: string;
  model?: string;
}

export const MISSING_KEY_MESSAGE =
  'No API key is set for the model service. Set OPENAI_API_KEY in the environment, or enter a key in Settings, then send your message again.';

/**
 * Sent to a service on this machine that has no key: the openai and anthropic
 * SDKs refuse to send without one, and local servers ignore it.
 */
export const LOCAL_PLACEHOLDER_KEY = 'no-key-needed';

/** The model name requests will carry: MINO_MODEL wins over the settings. */
export function resolvedModelName(settings: { model: string }, env: NodeJS.ProcessEnv): string {
  return env.MINO_MODEL?.trim() || settings.model;
}

/** The service a turn uses, as the environment leaves it, with the model asked for and how to reach it. */
export interface ResolvedService {
  /** The configured service; for `default`, with OPENAI_BASE_URL and MINO_MODEL applied. */
  service: ServiceConfig;
  model: string;
  /** What createModelClient takes. */
  client: ModelClientOptions;
}

/** The configured service named `name` (default: the settings'), with the environment's overrides applied; throws a `config` ModelError when there is none. */
export function serviceNamed(name: string | undefined, sources: Pick<ModelConfigSources, 'settings' | 'services' | 'env'>): ServiceConfig {
  const services = sources.services ?? NO_SERVICE_SETTINGS;
  const wanted = name ?? services.defaultName;
  const service = allServices(sources.settings, services).find((candidate) => candidate.name === wanted);
  if (!service) throw new ModelError('config', unknownServiceMessage(wanted, services));
  if (service.name !== DEFAULT_SERVICE_NAME) return service;
  return { ...service, baseUrl: sources.env.OPENAI_BASE_URL?.trim() || service.baseUrl, model: resolvedModelName(service, sources.env) };
}

/** Resolves the service and model a turn uses and the key it sends; every key found is kept out of the log. */
export async function resolveService(choice: ServiceChoice, sources: ModelConfigSources): Promise<ResolvedService> {
  const service = serviceNamed(choice.service, sources);
  const model = choice.model?.trim() || service.model;
  const client: ModelClientOptions = {
    protocol: service.protocol,
    baseURL: service.baseUrl,
    model,
    apiKey: await serviceKey(service, sources),
    streamIdleTimeoutMs: sources.settings.streamIdleTimeout * 1000,
    env: sources.env,
    ...(sources.fetch ? { fetch: sources.fetch } : {}),
  };
  if (service.name === DEFAULT_SERVICE_NAME) {
    // Read from the environment as the openai SDK does, for keys that belong to several organizations or projects.
    const organization = sources.env.OPENAI_ORG_ID?.trim();
    const project = sources.env.OPENAI_PROJECT_ID?.trim();
    if (organization) client.organization = organization;
    if (project) client.project = project;
  }
  return { service, model, client };
}

async function serviceKey(service: ServiceConfig, sources: ModelConfigSources): Promise<string> {
  if (service.name === DEFAULT_SERVICE_NAME) {
    const key = sources.env.OPENAI_API_KEY?.trim() || sources.storedApiKey?.trim();
    if (!key) throw new ModelError('config', MISSING_KEY_MESSAGE);
    addLogSecrets([key]);
    return key;
  }
  const fromEnv = service.apiKeyEnv ? sources.env[service.apiKeyEnv]?.trim() : undefined;
  const key = fromEnv || (await sources.storedServiceKey?.(service.name))?.trim();
  if (key) {
    addLogSecrets([key]);
    return key;
  }
  if (isLoopbackUrl(service.baseUrl)) return LOCAL_PLACEHOLDER_KEY;
  const where = service.apiKeyEnv ? `Set ${service.apiKeyEnv} in the environment Mino starts in, or enter a key for it in Settings` : `Add "apiKeyEnv" (the environment variable holding its key) to the service in ~/.mino/config.json, or enter a key for it in Settings`;
  throw new ModelError('config', `No API key is set for the model service "${service.name}". ${where}, then send your message again.`);
}

/** The client for the service and model `choice` resolves to. */
export async function modelClientFor(sources: ModelConfigSources, choice: ServiceChoice = {}): Promise<ModelClient> {
  return createModelClient((await resolveService(choice, sources)).client);
}
