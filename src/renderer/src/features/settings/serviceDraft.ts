// A model service as a form holds it (text as typed) and back; main checks
// what is sent with the config file's own rules, so nothing is judged here.
import type { ServiceConfig, WireProtocol } from '../../../../shared/modelServices';
import type { ServiceEntry } from '../../../../shared/serviceViews';

export interface ServiceDraft {
  name: string;
  protocol: WireProtocol;
  baseUrl: string;
  model: string;
  apiKeyEnv: string;
  contextWindow: string;
}

export const PROTOCOL_LABELS: Record<WireProtocol, string> = {
  responses: 'OpenAI Responses API',
  chat: 'OpenAI Chat Completions',
  anthropic: 'Anthropic Messages API',
};

export function draftOf(service: ServiceConfig | ServiceEntry): ServiceDraft {
  return {
    name: service.name,
    protocol: service.protocol,
    baseUrl: service.baseUrl,
    model: service.model,
    apiKeyEnv: service.apiKeyEnv ?? '',
    contextWindow: service.contextWindow == null ? '' : String(service.contextWindow),
  };
}

/** What is sent to main: blank optional fields left out, the context window as a number when it reads as one. */
export function configOf(draft: ServiceDraft): ServiceConfig {
  const window = draft.contextWindow.trim();
  const number = Number(window);
  return {
    name: draft.name.trim(),
    protocol: draft.protocol,
    baseUrl: draft.baseUrl.trim(),
    model: draft.model.trim(),
    ...(draft.apiKeyEnv.trim() ? { apiKeyEnv: draft.apiKeyEnv.trim() } : {}),
    // A window that is not a number is still sent, so main's message says what is wrong with it.
    ...(window ? { contextWindow: (Number.isFinite(number) ? number : window) as number } : {}),
  };
}

/** Where a service's key comes from, in words; never the key. */
export function keyStatusText(service: ServiceEntry): string {
  if (service.keySource === 'environment') return `Key from ${service.apiKeyEnv ?? 'the environment'} in the environment (it wins over a stored key).`;
  if (service.keySource === 'stored') return 'A key is stored securely on this computer.';
  if (service.local) return 'No key set: a service on this machine may need none.';
  return 'No API key is set.';
}
