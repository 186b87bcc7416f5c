// The model client: one streamed request per call to respond(), in the wire
// protocol the service speaks (wires/: responses, chat, anthropic). Text
// deltas are forwarded as they arrive; the answer is returned only when the
// service says the response completed, so a half answer never reaches the
// loop as if it were whole. What the wires share (retries before a stream
// begins, the idle timeout, the abort, the answer limit, the naming of
// failures) is wireCore.ts's; the agent loop never knows which wire it talks to.
import { environmentFetch } from './environmentFetch';
import { ANSWER_LIMIT_BYTES } from './limits';
import { DEFAULT_MAX_RETRIES } from './retry';
import { ModelError, type ModelClient, type ModelRequest } from './types';
import { anthropicWire } from './wires/anthropic';
import { chatWire } from './wires/chat';
import { responsesWire } from './wires/responses';
import { respondOverWire, type Wire, type WireSetup } from './wireCore';
import { DEFAULT_SETTINGS } from '../../../shared/settings';
import type { WireProtocol } from '../../../shared/modelServices';

export interface ModelClientOptions {
  /** The wire protocol the service speaks; default `responses`. */
  protocol?: WireProtocol;
  /**
   * Defaults to the baseUrl setting's (api.openai.com). For `anthropic`, the
   * service's root (https://api.anthropic.com); a trailing /v1 is accepted too.
   */
  baseURL?: string;
  apiKey: string;
  /** Sent as OpenAI-Organization / OpenAI-Project when set (OPENAI_ORG_ID / OPENAI_PROJECT_ID). */
  organization?: string;
  project?: string;
  model: string;
  /**
   * Retries of a request that failed before its stream began (429, 5xx, no
   * connection), each announced as a `retry` event; streams already under way
   * are not retried. Default DEFAULT_MAX_RETRIES.
   */
  maxRetries?: number;
  /** The backoff's randomness (tests pin it); default Math.random. */
  random?: () => number;
  /** Longest wait for the response's headers, per attempt (default 10 minutes). */
  timeoutMs?: number;
  /** Sent as parallel_tool_calls when set. */
  parallelToolCalls?: boolean;
  /**
   * Longest wait for the next stream event (and for the first, from the
   * request); then the request is stopped and the turn fails. Default: the
   * streamIdleTimeout setting's, 120 s.
   */
  streamIdleTimeoutMs?: number;
  /** The most one answer may carry (text, reasoning, arguments); default ANSWER_LIMIT_BYTES (limits.ts). */
  answerLimitBytes?: number;
  /**
   * The transport: the desktop passes Electron's net.fetch (system proxy, PAC,
   * OS certificates). Default: environmentFetch(env), which honours
   * HTTPS_PROXY, HTTP_PROXY and NO_PROXY.
   */
  fetch?: typeof fetch;
  /** Where the default fetch reads the proxy variables; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** `anthropic` only: the longest answer asked for, in tokens (max_tokens); default DEFAULT_ANTHROPIC_MAX_TOKENS. */
  maxOutputTokens?: number;
}

export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = DEFAULT_SETTINGS.streamIdleTimeout * 1000;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export function createModelClient(opts: ModelClientOptions): ModelClient {
  const env = opts.env ?? process.env;
  const setup: WireSetup = {
    baseURL: opts.baseURL ?? DEFAULT_SETTINGS.baseUrl,
    fetch: opts.fetch ?? environmentFetch(env),
    idleMs: opts.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    maxRetries: Math.max(0, opts.maxRetries ?? DEFAULT_MAX_RETRIES),
    answerLimitBytes: opts.answerLimitBytes ?? ANSWER_LIMIT_BYTES,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    random: opts.random ?? Math.random,
  };
  return { respond: async (req, onEvent) => respondOverWire(setup, wireFor(opts, setup, req), req, onEvent) };
}

/** The wire for one request; a configuration that cannot be sent fails here, before anything is. */
function wireFor(opts: ModelClientOptions, setup: WireSetup, req: ModelRequest): Wire {
  checkedBaseURL(opts, setup.baseURL);
  const common = {
    baseURL: setup.baseURL,
    apiKey: opts.apiKey,
    model: opts.model,
    timeoutMs: setup.timeoutMs,
    ...(opts.parallelToolCalls === undefined ? {} : { parallelToolCalls: opts.parallelToolCalls }),
  };
  const openai = { ...(opts.organization ? { organization: opts.organization } : {}), ...(opts.project ? { project: opts.project } : {}) };
  switch (opts.protocol ?? 'responses') {
    case 'chat':
      return chatWire({ ...common, ...openai }, req);
    case 'anthropic':
      return anthropicWire({ ...common, ...(opts.maxOutputTokens ? { maxOutputTokens: opts.maxOutputTokens } : {}) }, req);
    case 'responses':
      return responsesWire({ ...common, ...openai }, req);
  }
}

function checkedBaseURL(opts: ModelClientOptions, baseURL: string): void {
  if (!opts.apiKey.trim()) throw new ModelError('config', 'No API key is set. Add your API key in Settings, then send your message again.');
  if (!opts.model.trim()) throw new ModelError('config', 'No model is set. Choose a model in Settings, then send your message again.');
  if (!URL.canParse(baseURL)) {
    throw new ModelError('config', `The base URL "${baseURL}" is not a valid URL. Correct it in Settings, then send your message again.`);
  }
  if (!/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new ModelError('config', `The base URL "${baseURL}" is not an http or https URL. Correct it in Settings, then send your message again.`);
  }
}
