// The openai SDK's client, as the `responses` and `chat` wires use it: loaded
// on the first request that needs it (loading it costs `mino exec` tens of
// milliseconds: docs/model-wires.md), given everything it sends, and reading
// nothing of the environment for itself.
import { MalformedEventError, ServiceEventError } from '../serviceErrors';
import { constructUnseen, SDK_TIMEOUT_MARGIN_MS, type SdkWireOptions } from './sdkWire';

export type OpenAISdk = typeof import('openai');

/** The SDK, imported on first use (a separate chunk of the CLI bundle). */
export function loadOpenAI(): Promise<OpenAISdk> {
  return import('openai');
}

/**
 * A client for one request, over the guarded `fetch` (transport.ts): the SDK
 * sends the request and parses the stream; retries, timeouts and limits stay
 * the shared core's (wireCore.ts).
 */
export function openAIClient(sdk: OpenAISdk, options: SdkWireOptions, fetch: typeof globalThis.fetch): InstanceType<OpenAISdk['OpenAI']> {
  // It would add OPENAI_CUSTOM_HEADERS' headers to the request, over its own (sdkWire.ts).
  return constructUnseen(['OPENAI_CUSTOM_HEADERS'], () => new sdk.OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    // null, not undefined: left out, the SDK reads OPENAI_ORG_ID, OPENAI_PROJECT_ID,
    // OPENAI_ADMIN_KEY and OPENAI_WEBHOOK_SECRET from process.env itself.
    organization: options.organization ?? null,
    project: options.project ?? null,
    adminAPIKey: null,
    webhookSecret: null,
    fetch,
    // Mino's own retries announce themselves (retry.ts); the SDK's would be silent.
    maxRetries: 0,
    timeout: options.timeoutMs + SDK_TIMEOUT_MARGIN_MS,
    // It would print a stream it cannot parse to the console (and OPENAI_LOG could make it print more); the error says it instead.
    logLevel: 'off',
  }));
}

/**
 * The SDK's reading of a stream, in the transport's terms: data that is not
 * JSON, and an error reported inside the stream (an `error` event, or an
 * event with an `error` field, which the SDK throws as a bare APIError).
 */
export function translateOpenAIError(sdk: OpenAISdk, error: unknown): unknown {
  if (error instanceof SyntaxError) return new MalformedEventError();
  if (error instanceof sdk.APIError && Object.getPrototypeOf(error) === sdk.APIError.prototype && error.status === undefined) {
    return new ServiceEventError(error.error);
  }
  return error;
}
