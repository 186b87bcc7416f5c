// The model services a person configured in ~/.mino/config.json: `"services"`
// (a list of entries) and `"service"` (the name of the one new sessions use).
// The single-service settings of older versions (baseUrl, model) keep working
// as the service named `default`, which always exists, so a file that never
// mentions services means what it meant before. A bad entry is reported by
// its position and name with the field at fault; like every other setting,
// it stops the settings from loading and the file is never rewritten.
import {
  DEFAULT_SERVICE_NAME,
  ServiceConfigSchema,
  ServiceNameSchema,
  SERVICE_NAME_RULE,
  type ServiceConfig,
} from '../../../shared/modelServices';
import type { Settings } from '../../../shared/settings';
import { issueLines } from '../../../shared/zodIssues';

/** The services part of the settings file, checked. */
export interface ServiceSettings {
  /** The entries of `"services"`, in file order (the `default` service is not among them). */
  listed: ServiceConfig[];
  /** `"service"`: the one new sessions use; `default` when the file names none. */
  defaultName: string;
}

export const NO_SERVICE_SETTINGS: ServiceSettings = Object.freeze({ listed: [], defaultName: DEFAULT_SERVICE_NAME });

/** The keys of the settings file this module reads; settings.ts does not report them as unknown. */
export const SERVICE_KEYS = ['services', 'service'] as const;

/**
 * Checks `"services"` and `"service"` of the stored object. Returns the
 * problems (each naming the entry and the field) instead of throwing, so the
 * caller can report them with the rest of the file's.
 */
export function parseServiceSettings(stored: Record<string, unknown>): { ok: true; value: ServiceSettings } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const listed: ServiceConfig[] = [];
  const entries = stored.services;
  if (entries !== undefined && !Array.isArray(entries)) {
    problems.push('"services" must be a list of services, e.g. [{ "name": "ollama", "protocol": "chat", "baseUrl": "http://localhost:11434/v1", "model": "qwen3" }]');
  }
  for (const [index, entry] of (Array.isArray(entries) ? entries : []).entries()) {
    const where = entryName(entry, index);
    const parsed = ServiceConfigSchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(...issueLines(parsed.error).map((line) => `${where}: ${line}`));
      continue;
    }
    if (parsed.data.name === DEFAULT_SERVICE_NAME) {
      problems.push(`${where}: "default" is the service made from the "baseUrl" and "model" settings; give this one another name`);
    } else if (listed.some((service) => service.name === parsed.data.name)) {
      problems.push(`${where}: another service is already named "${parsed.data.name}"; each service needs its own name`);
    } else {
      listed.push(parsed.data);
    }
  }
  const defaultName = defaultServiceName(stored.service, listed, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { listed, defaultName } };
}

/** `services[2] ("groq")`: how a problem names the entry, by position and, when it has one, by name. */
function entryName(entry: unknown, index: number): string {
  const name = typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string' ? ` ("${entry.name}")` : '';
  return `services[${index}]${name}`;
}

function defaultServiceName(value: unknown, listed: readonly ServiceConfig[], problems: string[]): string {
  if (value === undefined) return DEFAULT_SERVICE_NAME;
  const name = ServiceNameSchema.safeParse(value);
  if (!name.success) {
    problems.push(`"service" must name one of the services: ${SERVICE_NAME_RULE}`);
    return DEFAULT_SERVICE_NAME;
  }
  const names = serviceNames(listed);
  if (!names.includes(name.data)) problems.push(`"service" names "${name.data}", which is not among the services (${names.join(', ')})`);
  return name.data;
}

/** Every service a session can use: `default` (from the single-service settings) first, then the listed ones. */
export function allServices(settings: Pick<Settings, 'baseUrl' | 'model'>, services: ServiceSettings): ServiceConfig[] {
  const fallback: ServiceConfig = { name: DEFAULT_SERVICE_NAME, protocol: 'responses', baseUrl: settings.baseUrl, model: settings.model, apiKeyEnv: 'OPENAI_API_KEY' };
  return [fallback, ...services.listed];
}

export function serviceNames(listed: readonly ServiceConfig[]): string[] {
  return [DEFAULT_SERVICE_NAME, ...listed.map((service) => service.name)];
}

/**
 * The environment variables that hold a listed service's key. Like
 * OPENAI_API_KEY, each is taken out of the process's environment at start-up
 * so no command Mino runs inherits it (environmentSecret.ts).
 */
export function serviceKeyVariables(services: ServiceSettings): string[] {
  return [...new Set(services.listed.flatMap((service) => (service.apiKeyEnv ? [service.apiKeyEnv] : [])))];
}

/** The message for a service name no configured service has. */
export function unknownServiceMessage(name: string, services: ServiceSettings): string {
  return `There is no model service named "${name}". The configured services are: ${serviceNames(services.listed).join(', ')}. Add it to "services" in ~/.mino/config.json, or choose one of those.`;
}
