// What a model service says about its models: the list it offers (GET
// {baseUrl}/models for the OpenAI protocols, GET /v1/models for Anthropic's)
// and, for the local servers that give it, a model's context length (Ollama's
// POST /api/show, LM Studio's GET /api/v0/models). Used by the connection test;
// the requests go through the fetch it is given, as model requests do.
import type { ServiceConfig } from '../../../shared/modelServices';

/** The `anthropic-version` header the Messages API and its model list require. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** How a service is asked: the fetch, the key (or none) and how long to wait. */
export interface ServiceFetch {
  fetch: typeof fetch;
  apiKey: string | null;
  timeoutMs: number;
}

/** The address of `path` on the service: after the base URL, or for Anthropic after its root (a trailing /v1 is accepted). */
export function serviceUrl(service: Pick<ServiceConfig, 'protocol' | 'baseUrl'>, path: string): string {
  const base = service.baseUrl.replace(/\/+$/, '');
  if (service.protocol !== 'anthropic') return `${base}${path}`;
  return `${base.replace(/\/v1$/, '')}/v1${path}`;
}

/** The headers a request to the service carries: its key where it has one, as the protocol wants it. */
export function serviceHeaders(service: Pick<ServiceConfig, 'protocol'>, apiKey: string | null): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (service.protocol === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (apiKey) headers['x-api-key'] = apiKey;
  } else if (apiKey) {
    headers.authorization = `Bearer ${apiKey}`;
  }
  return headers;
}

/** The model ids of a list answer (`{ data: [{ id }] }` in both protocols), or null when it is not one. */
export function modelIds(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data.flatMap((entry) => (typeof (entry as { id?: unknown })?.id === 'string' ? [(entry as { id: string }).id] : []));
}

/**
 * The context length the local server reports for `model`: LM Studio's loaded
 * (else maximum) context, else the `*.context_length` of Ollama's model
 * information. Null when neither answers; a server that is neither is not an error.
 */
export async function localContextLength(service: Pick<ServiceConfig, 'baseUrl' | 'model'>, model: string, how: ServiceFetch): Promise<number | null> {
  const origin = new URL(service.baseUrl).origin;
  const lmStudio = await jsonOrNull(how, `${origin}/api/v0/models`, { method: 'GET' });
  const entry = Array.isArray((lmStudio as { data?: unknown } | null)?.data)
    ? ((lmStudio as { data: Array<Record<string, unknown>> }).data.find((candidate) => candidate.id === model) ?? null)
    : null;
  const fromLmStudio = positive(entry?.loaded_context_length) ?? positive(entry?.max_context_length);
  if (fromLmStudio !== null) return fromLmStudio;
  const ollama = await jsonOrNull(how, `${origin}/api/show`, { method: 'POST', body: JSON.stringify({ model }), headers: { 'content-type': 'application/json' } });
  const info = (ollama as { model_info?: unknown } | null)?.model_info;
  if (typeof info !== 'object' || info === null) return null;
  const key = Object.keys(info).find((name) => name.endsWith('.context_length'));
  return key === undefined ? null : positive((info as Record<string, unknown>)[key]);
}

function positive(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** The JSON a best-effort request answers with, or null for any failure: these endpoints are extras a server may not have. */
async function jsonOrNull(how: ServiceFetch, url: string, init: RequestInit): Promise<unknown> {
  try {
    const response = await how.fetch(url, { ...init, signal: AbortSignal.timeout(how.timeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return (await response.json()) as unknown;
  } catch {
    // ignore: a server without this endpoint (or not answering it) simply gives no context length
    return null;
  }
}
