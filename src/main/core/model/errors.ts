// Every way a model request can fail becomes one ModelError whose message
// tells the person what happened and what to do next.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError } from './types';

const SEND_AGAIN = 'then send your message again.';

export function abortedError(cause?: unknown): ModelError {
  return new ModelError('aborted', 'The request to the model was stopped.', { cause });
}

export function droppedStreamError(cause?: unknown): ModelError {
  const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return new ModelError(
    'stream',
    `The connection to the model service closed before the answer was complete${detail}. Check your network connection, ${SEND_AGAIN}`,
    { cause },
  );
}

/** The service's own words, without the SDK's "500 " prefix. */
function serviceMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return error.message.replace(/^\d{3}\s+/, '');
}

/** Maps an error thrown by the SDK (while connecting or while reading the stream). */
export function toModelError(error: unknown, ctx: { baseURL: string; aborted: boolean; timeoutMs?: number }): ModelError {
  if (error instanceof ModelError) return error;
  if (ctx.aborted || error instanceof APIUserAbortError) return abortedError(error);
  if (error instanceof APIConnectionTimeoutError) {
    const within = ctx.timeoutMs ? ` within ${Math.round(ctx.timeoutMs / 1000)} seconds` : ' in time';
    return new ModelError(
      'http',
      `The model service at ${ctx.baseURL} did not answer${within}. Check the base URL in Settings and your network connection, ${SEND_AGAIN}`,
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error && error.cause.message ? `: ${error.cause.message}` : '';
    return new ModelError(
      'http',
      `Could not reach the model service at ${ctx.baseURL}${cause}. Check the base URL in Settings and your network connection, ${SEND_AGAIN}`,
      { cause: error },
    );
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status;
    const text = serviceMessage(error);
    const message =
      status === 401 || status === 403
        ? `The model service refused the API key (HTTP ${status}: ${text}). Check the API key in Settings, ${SEND_AGAIN}`
        : status === 404
          ? `The model service returned HTTP 404: ${text}. Check the base URL and the model name in Settings, ${SEND_AGAIN}`
          : status === 429
            ? `The model service is limiting requests (HTTP 429: ${text}). Wait a moment, ${SEND_AGAIN}`
            : `The model service returned HTTP ${status}: ${text}. Check the base URL and API key in Settings, ${SEND_AGAIN}`;
    return new ModelError('http', message, { status, cause: error });
  }
  if (error instanceof APIError) {
    // No status: an `error` event inside an otherwise good stream.
    return new ModelError(
      'stream',
      `The model service reported an error while answering: ${serviceMessage(error)}. ${capitalize(SEND_AGAIN)}`,
      { cause: error },
    );
  }
  return droppedStreamError(error);
}

export function failedResponseError(detail: { code?: string | null; message?: string | null } | null | undefined): ModelError {
  const what = detail?.message ? `: ${detail.message}${detail.code ? ` (${detail.code})` : ''}` : '';
  return new ModelError('failed', `The model could not finish its answer${what}. ${capitalize(SEND_AGAIN)}`);
}

export function incompleteResponseError(reason: string | null | undefined): ModelError {
  const advice =
    reason === 'max_output_tokens'
      ? 'it reached its output limit. Ask for a smaller step, or ask it to continue.'
      : reason === 'content_filter'
        ? 'the service filtered its content. Rephrase your request, then send it again.'
        : `reason: ${reason ?? 'not given'}. Send your message again.`;
  return new ModelError('incomplete', `The model stopped before finishing its answer: ${advice}`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
