// "Test connection": checks a model service in one call and says exactly
// what failed, in words a person can act on: the host's name, TLS, a refused
// connection, the key (401/403), the URL (404: a wrong base URL, or a server
// that does not speak this protocol), the model (unknown), tool calling, or
// an answer in another protocol. On the way it lists the service's models
// where it offers a list, and the context length where a local server gives it.
//
// The probe is a direct fetch of one tiny, non-streamed request offering one
// trivial tool, not a request through the model client: the client's errors
// are written for a turn ("send your message again") and fold several of
// these cases into one, while here each case is its own message.
import { isLoopbackUrl, type ServiceConfig, type WireProtocol } from '../../../shared/modelServices';
import { localContextLength, modelIds, serviceHeaders, serviceUrl, type ServiceFetch } from './modelList';

export type ConnectionProblemKind =
  | 'name_resolution'
  | 'tls'
  | 'refused'
  | 'unreachable'
  | 'key'
  | 'url_not_found'
  | 'model_not_found'
  | 'no_tool_calling'
  | 'wrong_protocol'
  | 'refused_request';

export interface ConnectionReport {
  /** Null when the service answered the probe as its protocol says. */
  problem: { kind: ConnectionProblemKind; message: string } | null;
  /** The models the service lists; null when it offers no list (or was not reached). */
  models: string[] | null;
  /** The model's context length, where a local server (Ollama, LM Studio) gives it. */
  contextLength: number | null;
}

export interface ConnectionDeps {
  /** The key to send (a service on this machine may have none). */
  apiKey: string | null;
  /** The transport model requests use; default the global fetch. */
  fetch?: typeof fetch;
  /** The longest wait for each answer; default 30 seconds. */
  timeoutMs?: number;
}

const PROTOCOL_NAMES: Record<WireProtocol, string> = { responses: 'the OpenAI Responses API', chat: 'OpenAI Chat Completions', anthropic: 'the Anthropic Messages API' };
const PROBE_PATHS: Record<WireProtocol, string> = { responses: '/responses', chat: '/chat/completions', anthropic: '/messages' };

/** Checks `service` with its own model; the report's problem says what failed, or is null when all went well. */
export async function testConnection(service: ServiceConfig, deps: ConnectionDeps): Promise<ConnectionReport> {
  const how: ServiceFetch = { fetch: deps.fetch ?? fetch, apiKey: deps.apiKey, timeoutMs: deps.timeoutMs ?? 30_000 };
  const listed = await listModels(service, how);
  if ('problem' in listed) return { problem: listed.problem, models: null, contextLength: null };
  const contextLength = isLoopbackUrl(service.baseUrl) ? await localContextLength(service, service.model, how) : null;
  const problem = await probe(service, how, listed.models);
  return { problem, models: listed.models, contextLength };
}

type Problem = NonNullable<ConnectionReport['problem']>;

/** The service's models; a list it does not offer (any answer but a list) is no problem, a failure to reach it or a refused key is. */
async function listModels(service: ServiceConfig, how: ServiceFetch): Promise<{ models: string[] | null } | { problem: Problem }> {
  const url = serviceUrl(service, '/models');
  let response: Response;
  try {
    response = await how.fetch(url, { method: 'GET', headers: serviceHeaders(service, how.apiKey), signal: AbortSignal.timeout(how.timeoutMs) });
  } catch (error) {
    return { problem: networkProblem(url, error) };
  }
  const body = await readBody(response);
  if (response.status === 401 || response.status === 403) return { problem: keyProblem(service, response.status, body.detail) };
  return { models: response.ok ? modelIds(body.json) : null };
}

/** One tiny request offering one tool, in the service's protocol; null when the answer is what the protocol says it is. */
async function probe(service: ServiceConfig, how: ServiceFetch, models: string[] | null): Promise<Problem | null> {
  const url = serviceUrl(service, PROBE_PATHS[service.protocol]);
  let response: Response;
  try {
    response = await how.fetch(url, {
      method: 'POST',
      headers: { ...serviceHeaders(service, how.apiKey), 'content-type': 'application/json' },
      body: JSON.stringify(probeBody(service)),
      signal: AbortSignal.timeout(how.timeoutMs),
    });
  } catch (error) {
    return networkProblem(url, error);
  }
  const body = await readBody(response);
  if (response.status === 401 || response.status === 403) return keyProblem(service, response.status, body.detail);
  if (!response.ok) return statusProblem(service, url, response.status, body.detail, models);
  if (body.json === undefined) {
    return problem('wrong_protocol', `${url} answered, but with ${body.html ? 'an HTML page' : 'something that is not JSON'}, not ${PROTOCOL_NAMES[service.protocol]}. Check the base URL (it should lead to the API, not a web page) and the protocol.`);
  }
  if (!speaksProtocol(service.protocol, body.json)) {
    return problem('wrong_protocol', `${url} answered with JSON, but not with a response of ${PROTOCOL_NAMES[service.protocol]}. Check that the protocol matches the server (responses, chat or anthropic) and the base URL.`);
  }
  return null;
}

const PING_TOOL = { name: 'ping', description: 'Answers pong. Call it only when asked to.' };
const EMPTY_SCHEMA = { type: 'object', properties: {} };
const PROBE_PROMPT = 'Reply with the single word OK.';

function probeBody(service: ServiceConfig): object {
  switch (service.protocol) {
    case 'responses':
      return { model: service.model, input: PROBE_PROMPT, tools: [{ type: 'function', ...PING_TOOL, parameters: EMPTY_SCHEMA }], max_output_tokens: 16, store: false };
    case 'chat':
      return { model: service.model, messages: [{ role: 'user', content: PROBE_PROMPT }], tools: [{ type: 'function', function: { ...PING_TOOL, parameters: EMPTY_SCHEMA } }], max_tokens: 16 };
    case 'anthropic':
      return { model: service.model, max_tokens: 16, messages: [{ role: 'user', content: PROBE_PROMPT }], tools: [{ ...PING_TOOL, input_schema: EMPTY_SCHEMA }] };
  }
}

/** Whether a JSON answer is the protocol's (non-streamed) response object. */
function speaksProtocol(protocol: WireProtocol, json: unknown): boolean {
  const body = json as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null) return false;
  switch (protocol) {
    case 'responses':
      return body.object === 'response' && Array.isArray(body.output);
    case 'chat':
      return Array.isArray(body.choices);
    case 'anthropic':
      return body.type === 'message' && Array.isArray(body.content);
  }
}

/** As the model client recognises them (model/errors.ts): a server refusing tools for this model, and one not knowing the model. */
const TOOLS_REFUSED = /(does not|doesn't|do not) support tools|tools? (use |calling )?(is |are )?not supported|support tool use|enable-auto-tool-choice|tools param requires/i;
const MODEL_UNKNOWN = /\bmodel\b[^.]*\b(not found|does not exist|doesn't exist|is not available)|^model:|unknown model|no such model|model_not_found/i;

function statusProblem(service: ServiceConfig, url: string, status: number, detail: string, models: string[] | null): Problem {
  const said = detail ? `: ${detail}` : '';
  if (status >= 400 && status < 500 && TOOLS_REFUSED.test(detail)) {
    return problem('no_tool_calling', `The model "${service.model}" cannot call tools (HTTP ${status}${said}), and Mino works through tools. Choose a model that supports tool calling, or turn tool calling on in the server.`);
  }
  const modelMissing = MODEL_UNKNOWN.test(detail) || (models !== null && !models.includes(service.model) && status === 404);
  if (status >= 400 && status < 500 && modelMissing) {
    const offered = models && models.length > 0 ? ` It offers: ${models.slice(0, 20).join(', ')}${models.length > 20 ? ', …' : ''}.` : ' Check the model name.';
    return problem('model_not_found', `The service does not know the model "${service.model}" (HTTP ${status}${said}).${offered}`);
  }
  if (status === 404 || status === 405) {
    return problem(
      'url_not_found',
      `${url} does not exist on this server (HTTP ${status}${said}). Check the base URL, and that the server speaks ${PROTOCOL_NAMES[service.protocol]}: a server that speaks only Chat Completions has no /responses (choose the chat protocol for it).`,
    );
  }
  return problem('refused_request', `The service refused the test request (HTTP ${status}${said}).`);
}

function keyProblem(service: ServiceConfig, status: number, detail: string): Problem {
  const where = service.apiKeyEnv ? ` from ${service.apiKeyEnv}` : '';
  return problem('key', `The service refused the API key${where} (HTTP ${status}${detail ? `: ${detail}` : ''}). Check that the key is right, still valid, and belongs to this service.`);
}

/** A fetch that failed before any answer, named by its cause: the host's name, TLS, a refused connection, or else the error itself. */
function networkProblem(url: string, error: unknown): Problem {
  const { host, origin } = new URL(url);
  const code = errorCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return problem('name_resolution', `The name ${new URL(url).hostname} could not be resolved (${code}): no such host is known. Check the base URL for a typo, and your network or VPN.`);
  }
  if (code === 'ECONNREFUSED') {
    return problem('refused', `Nothing accepted the connection at ${origin} (connection refused). Check that the server is running (e.g. "ollama serve") and the port in the base URL.`);
  }
  if (code !== undefined && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/i.test(code)) {
    return problem('tls', `The secure connection to ${host} failed: its certificate is not trusted (${code}). Check the base URL; behind a proxy that inspects TLS, its certificate must be trusted by this system.`);
  }
  const text = error instanceof Error ? error.message : String(error);
  return problem('unreachable', `Could not reach ${origin}${code ? ` (${code})` : ''}: ${text}. Check the base URL and your network.`);
}

/** The `code` of an error or of the first error in its cause chain that has one (fetch wraps the socket's error). */
function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function problem(kind: ConnectionProblemKind, message: string): Problem {
  return { kind, message };
}

/** An answer's body: as JSON when it is, and a short detail for messages (the service's own error message when it gave one). */
async function readBody(response: Response): Promise<{ json: unknown; html: boolean; detail: string }> {
  const text = await response.text().catch(() => '');
  const html = /^\s*</.test(text) || (response.headers.get('content-type') ?? '').includes('text/html');
  let json: unknown;
  try {
    json = html ? undefined : JSON.parse(text);
  } catch {
    // ignore: the caller says an answer that is not JSON is not the protocol's
    json = undefined;
  }
  return { json, html, detail: errorDetail(json, html ? '' : text) };
}

function errorDetail(json: unknown, text: string): string {
  const error = (json as { error?: unknown } | null)?.error;
  const message = typeof error === 'string' ? error : (error as { message?: unknown } | null)?.message;
  const detail = typeof message === 'string' ? message : json === undefined ? text : '';
  return detail.trim().replace(/\s+/g, ' ').slice(0, 300);
}
